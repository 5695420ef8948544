/**
 * nsx-alb-se-capacity across stacks (PERFGUARD_INVENTORY, docs/shared-capacity.md): the network
 * stack owns SE group shared-web (N+M, 4 vCPUs, packed); team A's checkout-api (1,800 RSA TPS +
 * 10,000 RPS: 75.9% of an SE) runs on it; team B adds catalog-web (900 TPS + 20,000 RPS: 47.9%).
 * Together on one SE: 123.8% > 80%.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as zlib from "zlib";
import { afterAll, describe, expect, it } from "vitest";
import { nsxAlbSeCapacity } from "../../../policies/nsx-alb/nsx-alb-se-capacity";
import { nsxAlbSeCapacityAdvisory } from "../../../policies/nsx-alb/nsx-alb-se-capacity-advisory";
import { perfguardFacts } from "../../../policies/perfguard-facts";
import { parseMessage } from "../../../policies/pack/message";
import { runStackPolicy, TestResource, UNKNOWN_VALUE, Violation } from "../../support/policyHarness";
import { fixture, previewOf, withInventoryEnv } from "../../support/inventoryStacks";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-nsx-inventory-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A DIY backend holding `stacks` (fixture names), team A's gzipped. */
function backend(stacks: readonly string[]): string {
    const dir = fs.mkdtempSync(path.join(tmp, "be-"));
    for (const name of stacks) {
        const project = name.replace(/\.json$/, "");
        const folder = path.join(dir, ".pulumi", "stacks", project);
        fs.mkdirSync(folder, { recursive: true });
        const doc = JSON.parse(fs.readFileSync(fixture(name), "utf8")) as { deployment: unknown };
        const text = JSON.stringify({ version: 3, checkpoint: { stack: `organization/${project}/prod`, latest: doc.deployment } });
        fs.writeFileSync(path.join(folder, project === "team-a" ? "prod.json.gz" : "prod.json"), project === "team-a" ? zlib.gzipSync(text) : text);
    }
    return `file://${dir}`;
}

const files = (...names: string[]) => names.map(fixture).join(",");

async function judge(resources: TestResource[], config: Record<string, unknown> = {}): Promise<Violation[]> {
    return [
        ...await runStackPolicy(nsxAlbSeCapacity, resources, config),
        ...await runStackPolicy(nsxAlbSeCapacityAdvisory, resources, config),
        ...await runStackPolicy(perfguardFacts as never, resources),
    ];
}

/** policy, level, resource name, problem line, and the basis lines about other stacks. */
function summary(out: Violation[]): Array<[string, string, string, string, string[]]> {
    return out.map((v) => {
        const m = parseMessage(v.message);
        return [v.policyName, v.enforcementLevel, v.urn?.split("::").pop() ?? "(stack)", m.problem, m.basis.filter((b) => /stack|PERFGUARD_INVENTORY|^source /.test(b))] as [string, string, string, string, string[]];
    }).sort((a, b) => (a.join() < b.join() ? -1 : 1));
}

const COMBINED: Array<[string, string, string, string, string[]]> = [[
    "nsx-alb-se-capacity", "mandatory", "catalog-web",
    "Serviceenginegroup \"shared-web\": its busiest SE needs 123.8% with 2 VS shares on it (limit 80%): its VSs would drop traffic at peak.",
    [
        "SE group of stack network/prod (inventory, deployed 2026-12-04T20:00:00Z): its fields are changed there",
        "other stacks' VSs on this group (PERFGUARD_INVENTORY): team-a/prod Virtualservice \"checkout-api\" 75.9% of an SE (deployed 2026-12-04T21:00:00Z)",
    ],
]];

describe("team B's preview", () => {
    const cases: Array<[string, () => string | undefined, Array<[string, string, string, string, string[]]>]> = [
        ["exports of the network stack and team A", () => files("network.json", "team-a.json"), COMBINED],
        ["with team B's own earlier deployment too (replaced by the preview: never 171.8%)", () => files("network.json", "team-a.json", "team-b.json"), COMBINED],
        ["a file:// backend of all three stacks", () => backend(["network.json", "team-a.json", "team-b.json"]), COMBINED],
        ["no inventory: not checked, at the unverified level", () => undefined, [[
            "nsx-alb-se-capacity", "advisory", "(stack)",
            "1 resource not checked: seGroupRef names an SE group by uuid this stack does not declare: other stacks' load on it is unknown (Virtualservice \"catalog-web\").",
            [],
        ]]],
        ["an inventory without the group's stack: not checked, saying so", () => files("team-a.json"), [[
            "nsx-alb-se-capacity", "advisory", "(stack)",
            "1 resource not checked: seGroupRef names an SE group by uuid not in this stack, the inventory or config seGroups (Virtualservice \"catalog-web\").",
            [],
        ]]],
    ];
    it.each(cases)("%s", async (_name, spec, expected) => {
        expect(summary(await withInventoryEnv(spec(), () => judge(previewOf("team-b.json"))))).toEqual(expected);
    });

    it("an unreadable inventory source is a mandatory error naming it", async () => {
        const missing = path.join(tmp, "gone.json");
        const out = await withInventoryEnv(files("network.json") + `,${missing}`, () => judge(previewOf("team-b.json")));
        expect(summary(out).filter(([policy]) => policy === "perfguard-facts")).toEqual([[
            "perfguard-facts", "mandatory", "(stack)",
            `PERFGUARD_INVENTORY source ${missing} cannot be read (ENOENT): other stacks' load on shared objects is unknown.`, [`source ${missing}: cannot be read (ENOENT)`],
        ]]);
    });

    it("no secret of any stack reaches a message", async () => {
        const out = await withInventoryEnv(files("network.json", "team-a.json"), () => judge(previewOf("team-b.json")));
        expect(out.length).toBeGreaterThan(0);
        for (const v of out) {
            expect(v.message).not.toMatch(/SECRETCIPHERTEXT|\[secret\]/);
        }
    });
});

describe("the identity of an SE group: its Controller, tenant, cloud and name", () => {
    // Team B refers to shared-web by name; another Controller (the DMZ's) has a group of that name too.
    const byName = (r: TestResource): TestResource => r.type.includes("virtualservice")
        ? { ...r, props: { ...r.props, seGroupRef: "/api/serviceenginegroup/?name=shared-web" }, provider: { urn: "urn:pulumi:prod::team-b::pulumi:providers:avi::controller", props: { aviController: "ctl.example.com" } } } : r;
    it("a group of the same name on another Controller is another group: judged on its own Controller's", async () => {
        const out = await withInventoryEnv(files("network.json", "network-dmz.json", "team-a.json"), () => judge(previewOf("team-b.json", byName)));
        expect(summary(out)).toEqual(COMBINED);
    });
    it("without the VS's Controller known, both match: not checked, naming both stacks", async () => {
        const out = await withInventoryEnv(files("network.json", "network-dmz.json", "team-a.json"), () => judge(previewOf("team-b.json", (r) => ({ ...byName(r), provider: undefined }))));
        expect(out.map((v) => v.message).join("\n")).toContain("(stack network-dmz/prod), Serviceenginegroup \"shared-web\" (stack network/prod)) that the join cannot tell apart");
    });
});

describe("policy config seGroups, no inventory: never a silent pass", () => {
    const byName = (r: TestResource): TestResource => r.type.includes("virtualservice") ? { ...r, props: { ...r.props, seGroupRef: "/api/serviceenginegroup/?name=shared-web" } } : r;
    const group = { vcpusPerSe: "4", memoryPerSe: "8192", maxSe: "4", bufferSe: "1", haMode: "HA_MODE_SHARED", algo: "PLACEMENT_ALGO_PACKED", dedicatedDispatcherCore: "true" };
    it.each([
        ["team B's load fits: advisory, other stacks' load not counted", group, [[
            "nsx-alb-se-capacity", "advisory", "(stack)",
            "1 resource not checked: SE group \"shared-web\": busiest SE 47.9% with this stack's load; other stacks' load is not counted (Virtualservice \"catalog-web\").",
            [],
        ]]],
    ] as const)("%s", async (_name, g, expected) => {
        const out = await withInventoryEnv(undefined, () => judge(previewOf("team-b.json", byName), { seGroups: { "shared-web": g } }));
        expect(summary(out)).toEqual(expected);
    });
});

describe("the network team's preview", () => {
    // The preview does not know the group's computed uuid and URL: the inventory's deployment of the network stack lends them.
    const shrink = (vcpus: string) => (r: TestResource): TestResource => r.type.includes("serviceenginegroup")
        ? { ...r, props: { ...r.props, vcpusPerSe: vcpus, uuid: UNKNOWN_VALUE, url: UNKNOWN_VALUE } } : r;
    it.each([
        ["as deployed, with team A's VS: passes", "4", []],
        ["shrunk to 2 vCPUs: blocked, naming team A's VS", "2", [[
            "nsx-alb-se-capacity", "mandatory", "shared-web",
            "Serviceenginegroup \"shared-web\": its only VS, Virtualservice \"checkout-api\", does not fit the SEs it runs on (limit 80%).",
            ["other stacks' VSs on this group (PERFGUARD_INVENTORY): team-a/prod Virtualservice \"checkout-api\" 206.7% of an SE (deployed 2026-12-04T21:00:00Z)"],
        ]]],
    ] as const)("%s", async (_name, vcpus, expected) => {
        const out = await withInventoryEnv(files("network.json", "team-a.json"), () => judge(previewOf("network.json", shrink(vcpus))));
        expect(summary(out)).toEqual(expected);
    });
});
