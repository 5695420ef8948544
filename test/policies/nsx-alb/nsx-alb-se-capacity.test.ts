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
import { describe, expect, it } from "vitest";
import table from "../../../model/data/nsx-alb-se-20.1.6.json";
import { parseMessage, PROBLEM_LINE_MAX } from "../../../policies/pack/message";
import { pct } from "../../../policies/pack/format";
import { SE_GROUP, VS } from "./nsxFixtures";


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

// ---- issue 30 (readings, certificate keys, fixes) ----
const CAP = "nsx-alb-se-capacity";
const ADV = "nsx-alb-se-capacity-advisory";
export const CERT = "avi:index/sslkeyandcertificate:Sslkeyandcertificate";

/** A published figure, read from the JSON here. */
export function cell(vcpus: number, column: string): number {
    const row = table.rows.find((r) => r[0] === vcpus) as Array<number | boolean>;
    return row[table.columns.indexOf(column)] as number;
}

/** An SE group with the given fields (the rest take the provider defaults). */
export function group(name: string, fields: Record<string, string>): TestResource {
    return { type: SE_GROUP, name: `${name}-seg`, props: { name, cloudRef: "/api/cloud/?name=Default-Cloud", ...fields } };
}

/** A VS joined to `groupResource` through the seGroupRef property dependency, with perfguard: facts. */
export function vs(name: string, groupResource: string, facts: Record<string, string>, props: Record<string, unknown> = {}, deps: Record<string, string[]> = {}): TestResource {
    return {
        type: VS,
        name,
        props: { name, seGroupRef: UNKNOWN_VALUE, markers: Object.entries(facts).map(([k, v]) => ({ key: `perfguard:${k}`, values: [v] })), ...props },
        propertyDependencies: { seGroupRef: [groupResource], ...deps },
    };
}

export async function run(resources: TestResource[], config: Record<string, unknown> = {}): Promise<Violation[]> {
    return [...await runStackPolicy(nsxAlbSeCapacity, resources, config), ...await runStackPolicy(nsxAlbSeCapacityAdvisory, resources, config)];
}

/** "policy -> resource [level]", sorted. */
export function levelled(violations: Violation[]): string[] {
    return violations.map((v) => `${v.policyName} -> ${(v.urn ?? "").split("::").pop()} [${v.enforcementLevel}]`).sort();
}

export function on(violations: Violation[], resource: string, policy = CAP): ReturnType<typeof parseMessage> {
    const found = violations.find((v) => v.policyName === policy && (v.urn ?? "").endsWith(`::${resource}`));
    expect(found, `${policy} on ${resource}`).toBeDefined();
    const m = parseMessage((found as Violation).message);
    expect(m.problem.length).toBeLessThanOrEqual(PROBLEM_LINE_MAX);
    return m;
}

// 8 vCPU SEs with the 6 vCPU row's tested memory per vCPU, one SE per VS.
const EIGHT = { vcpusPerSe: "8", memoryPerSe: "8192", diskPerSe: "40", dedicatedDispatcherCore: "true", maxSe: "2", bufferSe: "1" };
const L4 = { applicationProfileRef: "/api/applicationprofile/?name=System-L4-Application" };

describe("issue 30: beyond the 6 vCPU row a mandatory verdict holds under the favourable reading", () => {
    // The two readings of the 8 vCPU L7 RPS figure: linear per vCPU from the 6 vCPU row, and the 4-to-6 slope.
    const linear = (cell(6, "l7Rps") * 8) / 6;
    const slope = cell(6, "l7Rps") + 2 * ((cell(6, "l7Rps") - cell(4, "l7Rps")) / 2);
    const cases: Array<[string, TestResource[], string[]]> = [
        ["baseline: 8 vCPUs, 140000 L7 RPS (fits on every reading but the 6 vCPU row's 185000 x 80%)",
            [group("big-l7", EIGHT), vs("big-l7-vs", "big-l7-seg", { l7Rps: "140000" })], []],
        // 190000 / 246667 = 77.0% linear; 190000 / 220000 = 86.4% on the slope: advisory, not mandatory.
        ["big-l7: 190000 L7 RPS on 8 vCPUs is advisory",
            [group("big-l7", EIGHT), vs("big-l7-vs", "big-l7-seg", { l7Rps: "190000" })], [`${ADV} -> big-l7-vs [advisory]`]],
        // Bulk throughput stays at the 6 vCPU row's 13 Gbps on every reading: 12 / 13 = 92.3% > 80%.
        ["big-l4: 12 Gbps L4 on 8 vCPUs stays mandatory",
            [group("big-l4", EIGHT), vs("big-l4-vs", "big-l4-seg", { throughputGbps: "12" }, L4)], [`${CAP} -> big-l4-seg [mandatory]`, `${CAP} -> big-l4-vs [mandatory]`]],
        // Over the limit on the favourable reading too: 210000 / 246667 = 85.1%: mandatory.
        ["210000 L7 RPS on 8 vCPUs is over the favourable reading: mandatory",
            [group("big-l7", EIGHT), vs("big-l7-vs", "big-l7-seg", { l7Rps: "210000" })], [`${CAP} -> big-l7-seg [mandatory]`, `${CAP} -> big-l7-vs [mandatory]`]],
    ];
    it.each(cases)("%s", async (_name, resources, expected) => {
        expect(levelled(await run(resources))).toEqual([...expected].sort());
    });

    it("big-l7's advisory names both readings and the 6 vCPU row", async () => {
        const m = on(await run(cases[1][1]), "big-l7-vs", ADV);
        expect(m.problem).toContain(`${pct(190000 / linear)} linear per vCPU`);
        expect(m.problem).toContain(`${pct(190000 / slope)} on the 4-to-6 slope`);
        expect(m.problem).toContain(`${pct(190000 / cell(6, "l7Rps"))} of the 6 vCPU row`);
        expect(m.basis.join("\n")).toContain(`(the favourable reading, the only one a mandatory verdict rests on) it needs ${pct(190000 / linear)}; ` +
            `on the 4-to-6 vCPU slope (the conservative reading) it needs ${pct(190000 / slope)}, over the limit ${pct(0.8)}: advisory`);
    });
    it("big-l4's verdict states the 6 vCPU row's throughput, held beyond it", async () => {
        const all = await run(cases[2][1]);
        const m = on(all, "big-l4-vs");
        expect(m.problem).toContain(pct(12 / cell(6, "l4ThroughputGbps")));
        expect(on(all, "big-l4-seg").basis.join("\n")).toContain("throughput held at the 6 vCPU figure");
    });
});
