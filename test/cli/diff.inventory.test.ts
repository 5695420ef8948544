/**
 * `perfguard diff` with PERFGUARD_INVENTORY (issue 32): both sides judged with the same other
 * stacks, so the PR comment shows a shared SE group's before and after with every stack's load.
 * Team B adds `catalog-web` (47.9% of an SE) to the network stack's `shared-web`, where team A's
 * `checkout-api` needs 75.9%: packed placement puts both on one SE, 123.8% > 80%.
 * Fixtures: test/fixtures/inventory (network.json, team-a.json, team-b.json), through the built binary.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { fixture, INVENTORY_FIXTURES } from "../support/inventoryStacks";
import { perfguard, tempDir } from "./cliHarness";

const dir = tempDir();

interface Marker {
    key: string;
    values: string[];
}
interface StateResource {
    urn: string;
    inputs?: { markers?: Marker[] };
    outputs?: { markers?: Marker[] };
}

/** Team B's export changed by `edit` (its resources' list), written to `name`. */
function teamB(name: string, edit: (resources: StateResource[]) => StateResource[]): string {
    const doc = JSON.parse(fs.readFileSync(fixture("team-b.json"), "utf8")) as { deployment: { resources: StateResource[] } };
    doc.deployment.resources = edit(doc.deployment.resources);
    const file = path.join(dir, name);
    fs.writeFileSync(file, JSON.stringify(doc));
    return file;
}

const isCatalog = (r: StateResource) => r.urn.endsWith("::catalog-web");
/** Team B never deployed: the empty export CI writes for a stack that does not exist yet. */
const EMPTY = teamB("team-b-empty.json", () => []);
/** Team B without catalog-web (the deployed stack before the PR). */
const WITHOUT = teamB("team-b-without.json", (rs) => rs.filter((r) => !isCatalog(r)));
/** Team B with a small catalog-web (50 TPS, 1,000 RPS: 2.6% of an SE). */
const SMALLER = teamB("team-b-smaller.json", (rs) =>
    rs.map((r) => {
        if (isCatalog(r)) {
            for (const m of [...(r.inputs?.markers ?? []), ...(r.outputs?.markers ?? [])]) {
                m.values = m.key === "perfguard:sslTps" ? ["50"] : m.key === "perfguard:l7Rps" ? ["1000"] : m.values;
            }
        }
        return r;
    }),
);

/** The network stack with shared-web shrunk to 2 vCPUs (the owning team's change). */
function networkSmaller(): string {
    const doc = JSON.parse(fs.readFileSync(fixture("network.json"), "utf8")) as {
        deployment: { resources: Array<{ urn: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }> };
    };
    for (const r of doc.deployment.resources.filter((x) => x.urn.endsWith("::shared-web"))) {
        for (const props of [r.inputs, r.outputs]) {
            if (props) {
                props.vcpusPerSe = "2";
            }
        }
    }
    const file = path.join(dir, "network-2vcpu.json");
    fs.writeFileSync(file, JSON.stringify(doc));
    return file;
}

interface Figure {
    key: string;
    beforeText?: string;
    afterText?: string;
}
interface DiffJson {
    exitCode: number;
    inventory?: { stacks: number; joined: string[]; ownReplaced: boolean; stale?: { hours: number; stacks: string[] } };
    verdicts: Array<{ change: string; verdict: { policy: string; entity: string; level: string; problem: string; message: string } }>;
    entities: Array<{ kind: string; id: string; status: string; figures: Figure[]; notChecked: { before?: string; after?: string } }>;
}

/** The group's busiest SE, before → after ("-" where a side has no figure). */
function busiest(json: DiffJson): string {
    const group = json.entities.find((e) => e.id === "shared-web");
    const f = group?.figures.find((x) => x.key === "busiestSeCpuPct");
    return group?.status === "unchanged" ? "unchanged" : `${f?.beforeText ?? "-"} → ${f?.afterText ?? "-"}`;
}

/** The NSX ALB rows of the diff, each with its status: this stack's entities and the shared objects only. */
function nsxRows(json: DiffJson): string[] {
    return json.entities
        .filter((e) => e.id === "shared-web" || e.id.startsWith("catalog-web") || e.id.startsWith("checkout-api"))
        .map((e) => `${e.id} ${e.status}`)
        .sort();
}

function newVerdicts(json: DiffJson): string[] {
    return json.verdicts
        .filter((v) => v.change === "appeared")
        .map((v) => `${v.verdict.level} ${v.verdict.policy} on ${v.verdict.entity}`)
        .sort();
}

const AGE = { PERFGUARD_INVENTORY_MAX_AGE_HOURS: "100000" };
const NETWORK_AND_A = `${fixture("network.json")},${fixture("team-a.json")}`;

describe("perfguard diff judges both sides with PERFGUARD_INVENTORY", () => {
    it.each([
        {
            name: "team B adds catalog-web; inventory network + team A",
            base: WITHOUT,
            head: fixture("team-b.json"),
            inventory: NETWORK_AND_A,
            busiest: "75.9% → 123.8%",
            rows: ["catalog-web added", "shared-web changed"],
            added: ["mandatory nsx-alb-se-capacity on avi:index:Virtualservice: catalog-web"],
            exitCode: 1,
            stacks: { stacks: 2, joined: ["network/prod", "team-a/prod"], ownReplaced: false },
        },
        {
            // A first deploy: base has none of team B's resources, but team A's load is on shared-web already.
            name: "team B's first deploy (an empty base) adds catalog-web; inventory network + team A",
            base: EMPTY,
            head: fixture("team-b.json"),
            inventory: NETWORK_AND_A,
            busiest: "75.9% → 123.8%",
            rows: ["catalog-web added", "shared-web changed"],
            added: ["mandatory nsx-alb-se-capacity on avi:index:Virtualservice: catalog-web"],
            exitCode: 1,
            stacks: { stacks: 2, joined: ["network/prod", "team-a/prod"], ownReplaced: false },
        },
        {
            // Team B's own earlier deployment in the inventory is replaced by each side: 123.8%, never 171.8%.
            // network-dmz/prod's group of the same name (another controller) is reached by its name, but is no shared object here.
            name: "the same with the fixtures folder as inventory (team B's deployed entry in it)",
            base: WITHOUT,
            head: fixture("team-b.json"),
            inventory: INVENTORY_FIXTURES,
            busiest: "75.9% → 123.8%",
            rows: ["catalog-web added", "shared-web changed"],
            added: ["mandatory nsx-alb-se-capacity on avi:index:Virtualservice: catalog-web"],
            exitCode: 1,
            stacks: { stacks: 8, joined: ["network/prod", "team-a/prod"], ownReplaced: true },
        },
        {
            name: "the first deploy with the fixtures folder as inventory",
            base: EMPTY,
            head: fixture("team-b.json"),
            inventory: INVENTORY_FIXTURES,
            busiest: "75.9% → 123.8%",
            rows: ["catalog-web added", "shared-web changed"],
            added: ["mandatory nsx-alb-se-capacity on avi:index:Virtualservice: catalog-web"],
            exitCode: 1,
            stacks: { stacks: 8, joined: ["network/prod", "team-a/prod"], ownReplaced: true },
        },
        {
            name: "catalog-web grows from 2.6% of an SE to 47.9%",
            base: SMALLER,
            head: fixture("team-b.json"),
            inventory: NETWORK_AND_A,
            busiest: "78.5% → 123.8%",
            rows: ["catalog-web changed", "shared-web changed"],
            added: ["mandatory nsx-alb-se-capacity on avi:index:Virtualservice: catalog-web"],
            exitCode: 1,
            stacks: { stacks: 2, joined: ["network/prod", "team-a/prod"], ownReplaced: false },
        },
        {
            // Team B leaves the group: it is still the row of a shared object, with team A's load alone after.
            name: "team B removes catalog-web",
            base: fixture("team-b.json"),
            head: WITHOUT,
            inventory: NETWORK_AND_A,
            busiest: "123.8% → 75.9%",
            rows: ["catalog-web removed", "shared-web changed"],
            added: [],
            exitCode: 0,
            stacks: { stacks: 2, joined: ["network/prod", "team-a/prod"], ownReplaced: false },
        },
        {
            // The group already failed with both teams' VSs: the verdict stays (not new), its figure worsens.
            // The teams' VSs are load on it (named in its verdicts), no rows of the network team's diff.
            name: "the network team shrinks shared-web to 2 vCPUs; inventory team A + team B",
            base: fixture("network.json"),
            head: networkSmaller(),
            inventory: `${fixture("team-a.json")},${fixture("team-b.json")}`,
            busiest: "123.8% → 335.9%",
            rows: ["shared-web changed"],
            added: ["advisory nsx-alb-se-dedicated-dispatcher on avi:index:Serviceenginegroup: shared-web"],
            exitCode: 0,
            stacks: { stacks: 2, joined: ["team-a/prod", "team-b/prod"], ownReplaced: false },
        },
    ])("$name", async (c) => {
        const run = await perfguard(["diff", c.base, c.head, "--format", "json"], dir, { ...AGE, PERFGUARD_INVENTORY: c.inventory });
        expect(run.stderr).toBe("");
        const json = JSON.parse(run.stdout) as DiffJson;
        expect(busiest(json)).toBe(c.busiest);
        expect(nsxRows(json)).toEqual(c.rows);
        expect(newVerdicts(json)).toEqual(c.added);
        expect(json.inventory).toEqual({ spec: c.inventory, ...c.stacks });
        expect(run.code).toBe(c.exitCode);
        expect(json.exitCode).toBe(c.exitCode);
        if (c.exitCode === 1) {
            // The Basis names the other stack's contribution.
            const message = json.verdicts.find((v) => v.verdict.level === "mandatory")?.verdict.message ?? "";
            expect(message).toContain('team-a/prod Virtualservice "checkout-api" 75.9% of an SE');
        }
    });

    it("every output shows the combined before and after, and says which inventory both sides read", async () => {
        const out = (ext: string) => path.join(dir, `team-b.${ext}`);
        const run = await perfguard(
            [
                "diff",
                WITHOUT,
                fixture("team-b.json"),
                ...["text=txt", "markdown=md", "sarif=sarif", "junit=xml", "github=gh"].flatMap((o) => [
                    "--output",
                    `${o.split("=")[0]}=${out(o.split("=")[1])}`,
                ]),
            ],
            dir,
            { ...AGE, PERFGUARD_INVENTORY: NETWORK_AND_A },
        );
        expect(run.code).toBe(1);
        const read = (ext: string) => fs.readFileSync(out(ext), "utf8");
        const line = `other stacks' load counted on both sides: PERFGUARD_INVENTORY=${NETWORK_AND_A} (2 of its 2 stacks share objects with this stack: network/prod, team-a/prod)`;
        expect(run.stdout).toContain(`\n${line}\n`);
        expect(run.stdout).toContain("busiest SE (limited by CPU total (summed, not measured)): 75.9% → 123.8% (+47.95 pts, worse)");
        expect(read("txt")).toBe(run.stdout);
        expect(read("md")).toContain(
            "| SE group shared-web | busiest SE (limited by CPU total (summed, not measured)) | 75.9% | 123.8% | +47.95 pts 🔺 worse |",
        );
        expect(read("md")).toContain(`PERFGUARD_INVENTORY=\`${NETWORK_AND_A}\``);
        // Team A's VS is load on shared-web, named in the verdict's Basis: no row of team B's diff.
        expect(read("md")).not.toContain("| virtual service checkout-api");
        expect(read("md")).toContain(`team-a/prod Virtualservice "checkout-api" 75.9% of an SE`);
        expect(run.stdout).not.toContain("checkout-api");
        for (const ext of ["sarif", "xml", "gh"]) {
            expect(read(ext)).toMatch(/busiest SE needs 123\.8%(25)? with 2 VS shares/);
            expect(read(ext)).toContain("checkout-api");
        }
        expect(read("gh")).toContain("::error file=Pulumi.yaml,line=1,title=nsx-alb-se-capacity (catalog-web) [new]::");
    });

    it.each([
        {
            // The desktop team's first Delivery Group in the platform's zone: the zone was there, with its controllers.
            name: "Citrix: a first deploy into another stack's zone",
            head: fixture("desktops-apac.json"),
            rows: ["deliveryGroup:apac-eng added", "site:site changed", "zone:apac changed"],
            joined: ["vdi-platform/prod"],
        },
        {
            // Team B's first guest on a host that team A's guests use: the host was there, with their load.
            name: "Xen: a first deploy onto a host other stacks' guests use",
            head: fixture("vms-b.json"),
            rows: ["host:7c1f3a52-5d0e-4b8a-9f21-6a0e2b4c8d11 changed", "site:site unchanged"],
            joined: ["vms-a/prod"],
        },
    ])("$name", async (c) => {
        const inventory = `${fixture("vdi-platform.json")},${fixture("vms-a.json")}`;
        const run = await perfguard(["diff", EMPTY, c.head, "--format", "json"], dir, { ...AGE, PERFGUARD_INVENTORY: inventory });
        const json = JSON.parse(run.stdout) as DiffJson;
        expect(json.entities.map((e) => `${e.kind}:${e.id} ${e.status}`).sort()).toEqual(c.rows);
        expect(json.inventory).toEqual({ spec: inventory, stacks: 2, joined: c.joined, ownReplaced: false });
    });

    it.each([
        {
            name: "stacks older than PERFGUARD_INVENTORY_MAX_AGE_HOURS: named as the pack's advisory names them",
            inventory: NETWORK_AND_A,
            maxAge: "1",
            stale: { hours: 1, stacks: ["network/prod", "team-a/prod"] },
            says: "; 2 stack(s) deployed more than 1 h ago or at an unknown time (network/prod, team-a/prod): their load may have changed)",
        },
        {
            // The advisory's list: the first three and a count; the stacks not joined are stale too (the advisory names them).
            name: "a folder's stale stacks: the first three and a count",
            inventory: INVENTORY_FIXTURES,
            maxAge: "1",
            stale: {
                hours: 1,
                stacks: [
                    "desktops-apac/prod",
                    "network-dmz/prod",
                    "network/prod",
                    "team-a/prod",
                    "team-b/prod",
                    "vdi-platform/prod",
                    "vms-a/prod",
                    "vms-b/prod",
                ],
            },
            says: "; 8 stack(s) deployed more than 1 h ago or at an unknown time (desktops-apac/prod, network-dmz/prod, network/prod and 5 more): their load may have changed)",
        },
        { name: "no stack older than the limit: nothing said", inventory: NETWORK_AND_A, maxAge: "100000", stale: undefined, says: undefined },
    ])("$name", async (c) => {
        const env = { PERFGUARD_INVENTORY_MAX_AGE_HOURS: c.maxAge, PERFGUARD_INVENTORY: c.inventory };
        const json = JSON.parse((await perfguard(["diff", WITHOUT, fixture("team-b.json"), "--format", "json"], dir, env)).stdout) as DiffJson;
        expect(json.inventory?.stale).toEqual(c.stale);
        // Both sides carry the pack's one stale advisory: paired as no change, so the inventory line says it.
        expect(json.verdicts.filter((v) => v.verdict.policy === "perfguard-facts")).toEqual([]);
        const text = (await perfguard(["diff", WITHOUT, fixture("team-b.json")], dir, env)).stdout;
        const line = text.split("\n").find((l) => l.startsWith("other stacks' load counted on both sides:")) ?? "";
        if (c.says === undefined) {
            expect(line).not.toContain("deployed more than");
        } else {
            expect(line.endsWith(c.says)).toBe(true);
        }
    });

    it("without an inventory the diff says the other stacks' load is unknown: never a silent no change", async () => {
        const run = await perfguard(["diff", WITHOUT, fixture("team-b.json"), "--format", "json"], dir, { PERFGUARD_INVENTORY: undefined });
        const json = JSON.parse(run.stdout) as DiffJson;
        expect(json.inventory).toBeUndefined();
        expect(json.verdicts.map((v) => `${v.change} ${v.verdict.level} ${v.verdict.policy}: ${v.verdict.problem}`)).toEqual([
            `appeared advisory nsx-alb-se-capacity: 1 resource not checked: seGroupRef names an SE group by uuid this stack does not declare: other stacks' load on it is unknown (Virtualservice "catalog-web").`,
        ]);
        expect(json.entities.find((e) => e.id === "catalog-web")?.notChecked.after).toBe(
            "seGroupRef names an SE group by uuid this stack does not declare: other stacks' load on it is unknown",
        );
        expect(json.entities.some((e) => e.id === "shared-web")).toBe(false);
        expect(run.code).toBe(0);
    });

    it("an inventory source that cannot be read fails the diff (exit 2), naming it: both sides would carry the same error", async () => {
        const missing = path.join(dir, "missing-digest.json");
        const run = await perfguard(["diff", WITHOUT, fixture("team-b.json")], dir, { PERFGUARD_INVENTORY: `${fixture("network.json")},${missing}` });
        expect(run.code).toBe(2);
        expect(run.stdout).toBe("");
        expect(run.stderr).toBe(
            `error: PERFGUARD_INVENTORY source ${missing} cannot be read (ENOENT): both sides are judged with it; fix the source or unset PERFGUARD_INVENTORY\n`,
        );
    });
});
