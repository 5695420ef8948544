/**
 * nsx-alb-se-capacity across stacks (PERFGUARD_INVENTORY, docs/shared-capacity.md): the network
 * stack owns SE group shared-web (N+M, 4 vCPUs, packed); team A's checkout-api (1,800 RSA TPS +
 * 10,000 RPS: 75.9% of an SE) runs on it; team B adds catalog-web (900 TPS + 20,000 RPS: 47.9%).
 * Together on one SE: 123.8% > 80%.
 */
import { sourceLabel } from "../../../policies/pack/inventory/messages";
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
import { pct } from "../../../policies/pack/format";
import { urnOf } from "../../support/policyHarness";
import { nsxAlbEvaluation } from "../../../policies/nsx-alb/evaluation";
import { StackView, viewOf } from "../../../policies/pack/resources";
import { ADV, CAP, cell, cert, group, levelled, on, run, vs } from "./issue30Fixtures";
import { policies } from "../../../policies";
import { runPolicies } from "../../support/policyHarness";
import { groupStack, SE_GROUP } from "./nsxFixtures";

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
        ...(await runStackPolicy(nsxAlbSeCapacity, resources, config)),
        ...(await runStackPolicy(nsxAlbSeCapacityAdvisory, resources, config)),
        ...(await runStackPolicy(perfguardFacts, resources)),
    ];
}

/** policy, level, resource name, problem line, and the basis lines about other stacks. */
function summary(out: Violation[]): Array<[string, string, string, string, string[]]> {
    return out
        .map((v) => {
            const m = parseMessage(v.message);
            return [
                v.policyName,
                v.enforcementLevel,
                v.urn?.split("::").pop() ?? "(stack)",
                m.problem,
                m.basis.filter((b) => /stack|PERFGUARD_INVENTORY|^source /.test(b)),
            ] as [string, string, string, string, string[]];
        })
        .sort((a, b) => (a.join() < b.join() ? -1 : 1));
}

const COMBINED: Array<[string, string, string, string, string[]]> = [
    [
        "nsx-alb-se-capacity",
        "mandatory",
        "catalog-web",
        'Serviceenginegroup "shared-web": its busiest SE needs 123.8% with 2 VS shares on it (limit 80%): its VSs would drop traffic at peak.',
        [
            "SE group of stack network/prod (inventory, deployed 2026-12-04T20:00:00Z): its fields are changed there",
            'other stacks\' VSs on this group (PERFGUARD_INVENTORY): team-a/prod Virtualservice "checkout-api" 75.9% of an SE (deployed 2026-12-04T21:00:00Z)',
        ],
    ],
];

describe("team B's preview", () => {
    const cases: Array<[string, () => string | undefined, Array<[string, string, string, string, string[]]>]> = [
        ["exports of the network stack and team A", () => files("network.json", "team-a.json"), COMBINED],
        [
            "with team B's own earlier deployment too (replaced by the preview: never 171.8%)",
            () => files("network.json", "team-a.json", "team-b.json"),
            COMBINED,
        ],
        ["a file:// backend of all three stacks", () => backend(["network.json", "team-a.json", "team-b.json"]), COMBINED],
        [
            "no inventory: not checked, at the unverified level",
            () => undefined,
            [
                [
                    "nsx-alb-se-capacity",
                    "advisory",
                    "(stack)",
                    '1 resource not checked: seGroupRef names an SE group by uuid this stack does not declare: other stacks\' load on it is unknown (Virtualservice "catalog-web").',
                    [],
                ],
            ],
        ],
        [
            "an inventory without the group's stack: not checked, saying so",
            () => files("team-a.json"),
            [
                [
                    "nsx-alb-se-capacity",
                    "advisory",
                    "(stack)",
                    '1 resource not checked: seGroupRef names an SE group by uuid not in this stack, the inventory or config seGroups (Virtualservice "catalog-web").',
                    [],
                ],
            ],
        ],
    ];
    it.each(cases)("%s", async (_name, spec, expected) => {
        expect(summary(await withInventoryEnv(spec(), () => judge(previewOf("team-b.json"))))).toEqual(expected);
    });

    it("an unreadable inventory source is a mandatory error naming it", async () => {
        const missing = path.join(tmp, "gone.json");
        const out = await withInventoryEnv(files("network.json") + `,${missing}`, () => judge(previewOf("team-b.json")));
        expect(summary(out).filter(([policy]) => policy === "perfguard-facts")).toEqual([
            [
                "perfguard-facts",
                "mandatory",
                "(stack)",
                `PERFGUARD_INVENTORY source ${missing} cannot be read (ENOENT): other stacks' load on shared objects is unknown.`,
                [`source ${missing}: cannot be read (ENOENT)`],
            ],
        ]);
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
    const byName = (r: TestResource): TestResource =>
        r.type.includes("virtualservice")
            ? {
                  ...r,
                  props: { ...r.props, seGroupRef: "/api/serviceenginegroup/?name=shared-web" },
                  provider: { urn: "urn:pulumi:prod::team-b::pulumi:providers:avi::controller", props: { aviController: "ctl.example.com" } },
              }
            : r;
    it("a group of the same name on another Controller is another group: judged on its own Controller's", async () => {
        const out = await withInventoryEnv(files("network.json", "network-dmz.json", "team-a.json"), () => judge(previewOf("team-b.json", byName)));
        expect(summary(out)).toEqual(COMBINED);
    });
    it("without the VS's Controller known, both match: not checked, naming both stacks", async () => {
        const out = await withInventoryEnv(files("network.json", "network-dmz.json", "team-a.json"), () =>
            judge(previewOf("team-b.json", (r) => ({ ...byName(r), provider: undefined }))),
        );
        expect(out.map((v) => v.message).join("\n")).toContain(
            '(stack network-dmz/prod), Serviceenginegroup "shared-web" (stack network/prod)) that the join cannot tell apart',
        );
    });
});

describe("policy config seGroups, no inventory: never a silent pass", () => {
    const byName = (r: TestResource): TestResource =>
        r.type.includes("virtualservice") ? { ...r, props: { ...r.props, seGroupRef: "/api/serviceenginegroup/?name=shared-web" } } : r;
    const group = {
        vcpusPerSe: "4",
        memoryPerSe: "8192",
        maxSe: "4",
        bufferSe: "1",
        haMode: "HA_MODE_SHARED",
        algo: "PLACEMENT_ALGO_PACKED",
        dedicatedDispatcherCore: "true",
    };
    it.each([
        [
            "team B's load fits: advisory, other stacks' load not counted",
            group,
            [
                [
                    "nsx-alb-se-capacity",
                    "advisory",
                    "(stack)",
                    '1 resource not checked: SE group "shared-web": busiest SE 47.9% with this stack\'s load; other stacks\' load is not counted (Virtualservice "catalog-web").',
                    [],
                ],
            ],
        ],
    ] as const)("%s", async (_name, g, expected) => {
        const out = await withInventoryEnv(undefined, () => judge(previewOf("team-b.json", byName), { seGroups: { "shared-web": g } }));
        expect(summary(out)).toEqual(expected);
    });
});

describe("policy config seGroups, an inventory that holds no stack: judged as without one, the source named", () => {
    const byName = (r: TestResource): TestResource =>
        r.type.includes("virtualservice") ? { ...r, props: { ...r.props, seGroupRef: "/api/serviceenginegroup/?name=shared-web" } } : r;
    const group = {
        vcpusPerSe: "4",
        memoryPerSe: "8192",
        maxSe: "4",
        bufferSe: "1",
        haMode: "HA_MODE_SHARED",
        algo: "PLACEMENT_ALGO_PACKED",
        dedicatedDispatcherCore: "true",
    };
    const NOT_COUNTED = [
        "nsx-alb-se-capacity",
        "advisory",
        "(stack)",
        '1 resource not checked: SE group "shared-web": busiest SE 47.9% with this stack\'s load; other stacks\' load is not counted (Virtualservice "catalog-web").',
        [],
    ];
    it.each([
        // Before: an empty inventory counted as "set", and team B's 47.9% passed silently.
        ["an empty folder", () => fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-empty-")), [NOT_COUNTED]],
        ["a digest of no stack", () => fixture("empty-digest.json"), [NOT_COUNTED]],
    ] as const)("%s", async (_name, spec, expected) => {
        const source = spec();
        const out = await withInventoryEnv(source, () => judge(previewOf("team-b.json", byName), { seGroups: { "shared-web": group } }));
        expect(summary(out.filter((v) => v.policyName !== "perfguard-facts"))).toEqual(expected);
        expect(out.filter((v) => v.policyName === "perfguard-facts").map((v) => [v.enforcementLevel, parseMessage(v.message).problem])).toEqual([
            ["mandatory", `PERFGUARD_INVENTORY source ${sourceLabel(source)} holds no stack exports: other stacks' load on shared objects is unknown.`],
        ]);
    });
});

describe("the network team's preview", () => {
    // The preview does not know the group's computed uuid and URL: the inventory's deployment of the network stack lends them.
    const shrink =
        (vcpus: string) =>
        (r: TestResource): TestResource =>
            r.type.includes("serviceenginegroup") ? { ...r, props: { ...r.props, vcpusPerSe: vcpus, uuid: UNKNOWN_VALUE, url: UNKNOWN_VALUE } } : r;
    it.each([
        ["as deployed, with team A's VS: passes", "4", []],
        [
            "shrunk to 2 vCPUs: blocked, naming team A's VS",
            "2",
            [
                [
                    "nsx-alb-se-capacity",
                    "mandatory",
                    "shared-web",
                    'Serviceenginegroup "shared-web": its only VS, Virtualservice "checkout-api", does not fit the SEs it runs on (limit 80%).',
                    [
                        'other stacks\' VSs on this group (PERFGUARD_INVENTORY): team-a/prod Virtualservice "checkout-api" 206.7% of an SE (deployed 2026-12-04T21:00:00Z)',
                    ],
                ],
            ],
        ],
    ] as const)("%s", async (_name, vcpus, expected) => {
        const out = await withInventoryEnv(files("network.json", "team-a.json"), () => judge(previewOf("network.json", shrink(vcpus))));
        expect(summary(out)).toEqual(expected);
    });
});

// ---- issue 30: a mandatory verdict holds under every reading the data allow (beyond the 6 vCPU row,
// the favourable one), the certificate's key type is read from the stack, the cheapest measured fix
// first. Table-driven: a baseline that passes and one change per case; figures computed from the table.
// 8 vCPU SEs with the 6 vCPU row's tested memory per vCPU, one SE per VS.
const EIGHT = { vcpusPerSe: "8", memoryPerSe: "8192", diskPerSe: "40", dedicatedDispatcherCore: "true", maxSe: "2", bufferSe: "1" };
const L4 = { applicationProfileRef: "/api/applicationprofile/?name=System-L4-Application" };

describe("issue 30: beyond the 6 vCPU row a mandatory verdict holds under the favourable reading", () => {
    const cases: Array<[string, TestResource[], string[]]> = [
        [
            "baseline: 8 vCPUs, 140000 L7 RPS (fits on every reading, the 6 vCPU row's too)",
            [group("big-l7", EIGHT), vs("big-l7-vs", "big-l7-seg", { l7Rps: "140000" })],
            [],
        ],
        // 190000 / 246667 = 77.0% linear; 190000 / 220000 = 86.4% on the slope: advisory, not mandatory.
        [
            "big-l7: 190000 L7 RPS on 8 vCPUs is advisory",
            [group("big-l7", EIGHT), vs("big-l7-vs", "big-l7-seg", { l7Rps: "190000" })],
            [`${ADV} -> big-l7-vs [advisory]`],
        ],
        // Bulk throughput stays at the 6 vCPU row's 13 Gbps on every reading: 12 / 13 = 92.3% > 80%.
        [
            "big-l4: 12 Gbps L4 on 8 vCPUs stays mandatory",
            [group("big-l4", EIGHT), vs("big-l4-vs", "big-l4-seg", { throughputGbps: "12" }, L4)],
            [`${CAP} -> big-l4-seg [mandatory]`, `${CAP} -> big-l4-vs [mandatory]`],
        ],
        // Over the limit on the favourable reading too: 210000 / 246667 = 85.1%: mandatory.
        [
            "210000 L7 RPS on 8 vCPUs is over the favourable reading: mandatory",
            [group("big-l7", EIGHT), vs("big-l7-vs", "big-l7-seg", { l7Rps: "210000" })],
            [`${CAP} -> big-l7-seg [mandatory]`, `${CAP} -> big-l7-vs [mandatory]`],
        ],
    ];
    it.each(cases)("%s", async (_name, resources, expected) => {
        expect(levelled(await run(resources))).toEqual([...expected].sort());
    });

    it("big-l4's verdict states the 6 vCPU row's throughput, held beyond it", async () => {
        const all = await run(cases[2][1]);
        const m = on(all, "big-l4-vs");
        expect(m.problem).toContain(pct(12 / cell(6, "l4ThroughputGbps")));
        expect(on(all, "big-l4-seg").basis.join("\n")).toContain("throughput held at the 6 vCPU figure");
    });
});

describe("issue 30: the certificate's key type is read from the stack before perfguard:sslKeyType", () => {
    const FOUR = { vcpusPerSe: "4", memoryPerSe: "4096", diskPerSe: "30", dedicatedDispatcherCore: "true", maxSe: "2", bufferSe: "1" };
    const SSL = { services: [{ port: "443", enableSsl: "true" }] };
    const DEMAND = { sslTps: "6000", l7Rps: "6000" };
    const EC = [{ algorithm: "SSL_KEY_ALGORITHM_EC", ecParams: [{ curve: "SSL_KEY_EC_CURVE_SECP256R1" }] }];
    const RSA = [{ algorithm: "SSL_KEY_ALGORITHM_RSA", rsaParams: [{ keySize: "SSL_KEY_2048_BITS" }] }];
    const UUID = "0b5b7c1e-8a52-4a43-9f0e-3c0e5d6f7a81";
    /** web-seg and shop-vs (6000 SSL TPS + 6000 L7 RPS) naming its certificate by `refs` (joined through `deps`). */
    const stack = (refs: unknown[], certs: TestResource[], facts: Record<string, string> = {}, deps: string[] = ["shop-cert"]): TestResource[] => [
        group("web", FOUR),
        ...certs,
        vs("shop-vs", "web-seg", { ...DEMAND, ...facts }, { ...SSL, sslKeyAndCertificateRefs: refs }, { sslKeyAndCertificateRefs: deps }),
    ];
    // 6000 / 8700 + 6000 / 150000 = 73.0% on ECC (the baseline passes); 6000 / 2600 + 4% = 234.8% on RSA-2048.
    const onRsa = 6000 / cell(4, "sslTpsRsa2048") + 6000 / cell(4, "l7Rps");
    const cases: Array<[string, TestResource[], string[]]> = [
        [
            "baseline: an ECDSA certificate in the stack, its ref unknown in the preview (joined through the dependency)",
            stack([UNKNOWN_VALUE], [cert("shop", EC)]),
            [],
        ],
        ["by ?name=", stack(["/api/sslkeyandcertificate?name=shop"], [cert("shop", EC)], {}, []), []],
        ["by URL with its uuid", stack([`https://ctrl/api/sslkeyandcertificate/sslkeyandcertificate-${UUID}`], [cert("shop", EC, { uuid: UUID })], {}, []), []],
        ["keyParams as an object, curve left to its default", stack([UNKNOWN_VALUE], [cert("shop", { algorithm: "SSL_KEY_ALGORITHM_EC" })]), []],
        ["the EC certificate wins over perfguard:sslKeyType rsa", stack([UNKNOWN_VALUE], [cert("shop", EC)], { sslKeyType: "rsa" }), []],
        ["an RSA-2048 certificate: mandatory", stack([UNKNOWN_VALUE], [cert("shop", RSA)]), [`${CAP} -> shop-vs [mandatory]`, `${CAP} -> web-seg [mandatory]`]],
        [
            "no certificate in the stack, no fact: RSA-2048 assumed, mandatory",
            stack(["/api/sslkeyandcertificate?name=elsewhere"], [], {}, []),
            [`${CAP} -> shop-vs [mandatory]`, `${CAP} -> web-seg [mandatory]`],
        ],
        [
            "an EC P-384 key (not measured): the ECC row at advisory",
            stack([UNKNOWN_VALUE], [cert("shop", [{ algorithm: "SSL_KEY_ALGORITHM_EC", ecParams: [{ curve: "SSL_KEY_EC_CURVE_SECP384R1" }] }])]),
            [`${ADV} -> shop-vs [advisory]`],
        ],
        [
            "both an RSA and an EC certificate: ECC at advisory",
            stack([UNKNOWN_VALUE, UNKNOWN_VALUE], [cert("shop", EC), cert("shop-rsa", RSA)], {}, ["shop-cert", "shop-rsa-cert"]),
            [`${ADV} -> shop-vs [advisory]`],
        ],
    ];
    it.each(cases)("%s", async (_name, resources, expected) => {
        expect(levelled(await run(resources))).toEqual([...expected].sort());
    });

    it("RSA-2048 read from the certificate: 234.8%, the key named in the Basis, no declaring fix", async () => {
        const all = await run(cases[5][1]);
        const m = on(all, "shop-vs");
        expect(m.problem).toContain(pct(onRsa));
        expect(m.basis.join("\n")).toContain('RSA-2048 key of Sslkeyandcertificate "shop-cert"');
        expect(on(all, "web-seg").fix).not.toContain("declare the key type");
    });
    it("RSA-2048 assumed: the Basis says assumed and the fix offers declaring the key type first", async () => {
        const all = await run(cases[6][1]);
        expect(on(all, "shop-vs").basis.join("\n")).toContain("RSA-2048 SSL TPS (assumed: no certificate key or perfguard:sslKeyType declared)");
        expect(on(all, "web-seg").fix).toMatch(/^declare the key type of shop-vs first \(RSA-2048 assumed\)/);
    });
    it("names the conflict between the certificate and perfguard:sslKeyType", () => {
        const resources = cases[4][1];
        const urn = (name: string) => urnOf((resources.find((r) => r.name === name) as TestResource).type, name);
        const view = new StackView(
            resources.map((r) =>
                viewOf({
                    urn: urn(r.name),
                    type: r.type,
                    name: r.name,
                    props: r.props,
                    propertyDependencies: Object.fromEntries(
                        Object.entries(r.propertyDependencies ?? {}).map(([p, names]) => [p, names.map((n) => ({ urn: urn(n) }))]),
                    ),
                }),
            ),
        );
        const member = nsxAlbEvaluation(view).groups[0].units[0].members[0];
        expect(member.demand?.sslKeyType).toBe("ecc");
        expect(member.where.sslKeyType).toBe(
            'EC P-256 key of Sslkeyandcertificate "shop-cert"; perfguard:sslKeyType in markers says rsa: the certificate is what the VS presents',
        );
    });
});

describe("issue 30: the cheapest measured change first; scale-out labels name the SEs the option sets", () => {
    // N+M, 4 vCPU SEs, maxSe 4 with one buffer: three VSs of 75000 L7 RPS (50% of the 4 vCPU row each).
    const PACKED = {
        vcpusPerSe: "4",
        memoryPerSe: "4096",
        diskPerSe: "30",
        dedicatedDispatcherCore: "true",
        maxSe: "4",
        bufferSe: "1",
        algo: "PLACEMENT_ALGO_PACKED",
    };
    const three = (rps: string) => ["a", "b", "c"].map((n) => vs(`${n}-vs`, "web-seg", { l7Rps: rps }));
    const share = 75000 / cell(4, "l7Rps");
    const cases: Array<[string, TestResource[], string[]]> = [
        ["baseline: the same three VSs distributed: 50% per SE", [group("web", { ...PACKED, algo: "PLACEMENT_ALGO_DISTRIBUTED" }), ...three("75000")], []],
        ["packed: the busiest SE carries all three (150%)", [group("web", PACKED), ...three("75000")], [`${CAP} -> web-seg [mandatory]`]],
    ];
    it.each(cases)("%s", async (_name, resources, expected) => {
        expect(levelled(await run(resources))).toEqual([...expected].sort());
    });
    it("the packed group's fix offers distributed placement first (50% per SE), then maxVsPerSe, before scale-out or a bigger SE", async () => {
        const m = on(await run(cases[1][1]), "web-seg");
        expect(m.problem).toContain(`busiest SE needs ${pct(3 * share)} with 3 VS shares`);
        const options = (m.fix ?? "").split("; or ");
        expect(options[0]).toBe(`set algo "PLACEMENT_ALGO_DISTRIBUTED" (busiest SE ${pct(share)}; 4 vCPU row, measured)`);
        expect(options[1]).toBe(`set maxVsPerSe "1" (busiest SE ${pct(share)}; 4 vCPU row, measured)`);
        expect(options.slice(2).every((o) => !/algo|maxVsPerSe "1"/.test(o))).toBe(true);
    });
    it("an active/active scale-out to minScaleoutPerVs 3 is labelled with its 3 SEs, judged on 2", async () => {
        const pair = {
            vcpusPerSe: "2",
            memoryPerSe: "2048",
            diskPerSe: "20",
            dedicatedDispatcherCore: "false",
            maxSe: "4",
            bufferSe: "0",
            haMode: "HA_MODE_SHARED_PAIR",
            minScaleoutPerVs: "2",
            maxScaleoutPerVs: "4",
        };
        // 100000 RPS: 125% of one 2 vCPU SE (80000); on 3 SEs it must fit on 2 after one fails: 62.5%.
        const all = await run([group("pair", pair), vs("pair-vs", "pair-seg", { l7Rps: "100000" })]);
        const fix = on(all, "pair-seg").fix ?? "";
        expect(fix).toContain(
            `set minScaleoutPerVs "3" (busiest SE ${pct(100000 / cell(2, "l7Rps") / 2)}; 2 vCPU row per SE; linear scale-out to 3 SEs assumed (judged on 2 after one fails): not measured)`,
        );
        expect(fix).not.toContain("scale-out to 2 SEs");
    });
});

// ---- NSX ALB review: whole-VS distributed placement, the distributed fix on that placement, SSL bulk
// throughput beyond the 6 vCPU row, the label of an unmeasured key. Baseline + one change per case.
describe("review: distributed placement places whole VSs on the least-loaded SE", () => {
    const FOUR = { vcpusPerSe: "4", memoryPerSe: "4096", diskPerSe: "30", dedicatedDispatcherCore: "true", algo: "PLACEMENT_ALGO_DISTRIBUTED" };
    const vss = (prefix: string, count: number, rps: string) =>
        Array.from({ length: count }, (_, i) => vs(`${prefix}-vs${i + 1}`, `${prefix}-seg`, { l7Rps: rps }));
    const rps = cell(4, "l7Rps"); // 150000
    const cases: Array<[string, TestResource[], string[]]> = [
        // Two VSs on two placement SEs: one each, 67500 / 150000 = 45%.
        [
            "baseline: k-dist with two VSs of 67500 L7 RPS (one per SE)",
            [group("k-dist", { ...FOUR, maxSe: "3", bufferSe: "1" }), ...vss("k-dist", 2, "67500")],
            [],
        ],
        // Three VSs on maxSe 3 - bufferSe 1 = 2 SEs: one SE carries two whole VSs, 135000 / 150000 = 90% > 80%.
        [
            "k-dist: a third VS puts two whole VSs on one SE (90%)",
            [group("k-dist", { ...FOUR, maxSe: "3", bufferSe: "1" }), ...vss("k-dist", 3, "67500")],
            [`${CAP} -> k-dist-seg [mandatory]`],
        ],
        // bufferSe 0, three VSs at 45% on three SEs: after one fails a survivor carries two: 90%.
        [
            "h-nobuf: bufferSe 0, after one SE fails one survivor carries two VSs (90%)",
            [group("h-nobuf", { ...FOUR, maxSe: "3", bufferSe: "0" }), ...vss("h-nobuf", 3, "67500")],
            [`${CAP} -> h-nobuf-seg [mandatory]`],
        ],
    ];
    it.each(cases)("%s", async (_name, resources, expected) => {
        expect(levelled(await run(resources))).toEqual([...expected].sort());
    });
    it("k-dist's busiest SE needs 90% with 2 VS shares, not the fractional 67.5%", async () => {
        const m = on(await run(cases[1][1]), "k-dist-seg");
        expect(m.problem).toContain(`busiest SE needs ${pct((2 * 67500) / rps)} with 2 VS shares`);
        expect(pct((2 * 67500) / rps)).toBe("90%");
    });
    it("h-nobuf's verdict is the survivor's 90%", async () => {
        const m = on(await run(cases[2][1]), "h-nobuf-seg");
        expect(m.problem).toContain(pct((2 * 67500) / rps));
    });
});

describe("review: the distributed-placement fix is judged on whole VSs and offered with the maxSe it needs", () => {
    const PACKED = { vcpusPerSe: "4", memoryPerSe: "4096", diskPerSe: "30", dedicatedDispatcherCore: "true", bufferSe: "1" };
    const four = Array.from({ length: 4 }, (_, i) => vs(`l-vs${i + 1}`, "l-packed-seg", { l7Rps: "75000" }));
    const share = 75000 / cell(4, "l7Rps"); // 50%
    const cases: Array<[string, TestResource[], string[]]> = [
        [
            "baseline: l-packed distributed on maxSe 5 (4 placement SEs, one VS each)",
            [group("l-packed", { ...PACKED, maxSe: "5", algo: "PLACEMENT_ALGO_DISTRIBUTED" }), ...four],
            [],
        ],
        // Distributed on maxSe 4: 4 whole VSs on 3 SEs puts two on one: 100% > 80%.
        [
            "l-packed distributed on maxSe 4: two whole VSs on one SE (100%)",
            [group("l-packed", { ...PACKED, maxSe: "4", algo: "PLACEMENT_ALGO_DISTRIBUTED" }), ...four],
            [`${CAP} -> l-packed-seg [mandatory]`],
        ],
        ["l-packed packed on maxSe 4: mandatory", [group("l-packed", { ...PACKED, maxSe: "4" }), ...four], [`${CAP} -> l-packed-seg [mandatory]`]],
    ];
    it.each(cases)("%s", async (_name, resources, expected) => {
        expect(levelled(await run(resources))).toEqual([...expected].sort());
    });
    it("l-packed distributed on maxSe 4 needs 100%", async () => {
        expect(on(await run(cases[1][1]), "l-packed-seg").problem).toContain(`busiest SE needs ${pct(2 * share)} with 2 VS shares`);
    });
    it("the packed fix offers distributed placement only with maxSe 5 (50%), never 66.7% on maxSe 4", async () => {
        const fix = on(await run(cases[2][1]), "l-packed-seg").fix ?? "";
        expect(fix.split("; or ")[0]).toBe(`set algo "PLACEMENT_ALGO_DISTRIBUTED", maxSe "5" (busiest SE ${pct(share)}; 4 vCPU row, measured)`);
        expect(fix).not.toContain(`set algo "PLACEMENT_ALGO_DISTRIBUTED" (busiest SE ${pct((4 * share) / 3)}`);
    });
});

describe("review: SSL bulk throughput is CPU bound beyond the 6 vCPU row", () => {
    const SSL = { services: [{ port: "443", enableSsl: "true" }], applicationProfileRef: "/api/applicationprofile/?name=System-Secure-HTTP" };
    const ssl6 = cell(6, "l7SslThroughputGbps"); // 10 Gbps
    // Linear per vCPU (13.3 Gbps at 8), capped at the plain L7 throughput held at the 6 vCPU row (12 Gbps).
    const linear = 9 / Math.min((ssl6 * 8) / 6, cell(6, "l7ThroughputGbps")) + 100 / ((cell(6, "sslTpsEcc") * 8) / 6); // 75% + 0.6%
    const cases: Array<[string, TestResource[], string[]]> = [
        [
            "baseline: a-8vcpu, 100 ECC SSL TPS and 6 Gbps SSL",
            [group("a-8vcpu", EIGHT), vs("a-vs", "a-8vcpu-seg", { sslTps: "100", sslKeyType: "ecc", throughputGbps: "6" }, SSL)],
            [],
        ],
        // 9 / 12 + 0.6% = 75.6% on the favourable reading; 9 / 10 held: 90.6%: advisory, not mandatory.
        [
            "a-8vcpu: 9 Gbps SSL is advisory (75.6% linear, capped at plain L7 throughput)",
            [group("a-8vcpu", EIGHT), vs("a-vs", "a-8vcpu-seg", { sslTps: "100", sslKeyType: "ecc", throughputGbps: "9" }, SSL)],
            [`${ADV} -> a-vs [advisory]`],
        ],
        // 10 Gbps: 10 / 12 = 83.3% even on the favourable reading: SSL never outruns plain throughput.
        [
            "a-8vcpu: 10 Gbps SSL is mandatory (over the plain L7 throughput's 80% on every reading)",
            [group("a-8vcpu", EIGHT), vs("a-vs", "a-8vcpu-seg", { sslTps: "100", sslKeyType: "ecc", throughputGbps: "10" }, SSL)],
            ["nsx-alb-se-capacity -> a-8vcpu-seg [mandatory]", "nsx-alb-se-capacity -> a-vs [mandatory]"],
        ],
    ];
    it.each(cases)("%s", async (_name, resources, expected) => {
        expect(levelled(await run(resources))).toEqual([...expected].sort());
    });
    it("names both readings: 75.6% linear per vCPU, over the limit on the conservative one", async () => {
        const m = on(await run(cases[1][1]), "a-vs", ADV);
        expect(pct(linear)).toBe("75.6%");
        expect(m.problem).toContain(`${pct(linear)} linear per vCPU`);
        expect(m.basis.join("\n")).toContain("on the 4-to-6 vCPU slope (the conservative reading)");
    });
});

describe("review: an unmeasured key is labelled as read, judged on the row of its kind", () => {
    const FOUR = { vcpusPerSe: "4", memoryPerSe: "4096", diskPerSe: "30", dedicatedDispatcherCore: "true", maxSe: "2", bufferSe: "1" };
    const SSL = { services: [{ port: "443", enableSsl: "true" }] };
    const key = (bits: string) => [{ algorithm: "SSL_KEY_ALGORITHM_RSA", rsaParams: [{ keySize: bits }] }];
    const stack = (bits: string): TestResource[] => [
        group("e", FOUR),
        cert("e", key(bits)),
        vs("e-vs", "e-seg", { sslTps: "2000" }, { ...SSL, sslKeyAndCertificateRefs: [UNKNOWN_VALUE] }, { sslKeyAndCertificateRefs: ["e-cert"] }),
    ];
    const onRow = 2000 / cell(4, "sslTpsRsa2048"); // 76.9%
    const cases: Array<[string, TestResource[], string[]]> = [
        ["baseline: RSA-2048 key, 2000 SSL TPS (76.9%)", stack("SSL_KEY_2048_BITS"), []],
        ["RSA-4096 key: advisory", stack("SSL_KEY_4096_BITS"), [`${ADV} -> e-vs [advisory]`]],
    ];
    it.each(cases)("%s", async (_name, resources, expected) => {
        expect(levelled(await run(resources))).toEqual([...expected].sort());
    });
    it("says the RSA-4096 demand needs more than the RSA-2048 row's figure, unmeasured", async () => {
        const m = on(await run(cases[1][1]), "e-vs", ADV);
        expect(m.problem).toContain(`RSA-4096 key needs more than the ${pct(onRow)} judged on the measured row`);
        expect(m.problem).not.toContain("fits");
        expect(m.basis.join("\n")).toContain("2000 RSA-4096 SSL TPS, judged on the RSA-2048 row: not measured; larger keys cost more per handshake");
        expect(m.basis.join("\n")).not.toContain("2000 RSA-2048 SSL TPS");
    });
});

// The expert review's findings on the verdicts (formerly nsx.review.test.ts).
const NSX = policies.filter((p) => p.name.startsWith("nsx-"));
const onGroup = (found: Violation[], policy: string) => found.filter((v) => v.policyName === policy && v.urn === urnOf(SE_GROUP, "g-seg"));
const problemOf = (v: Violation) => parseMessage(v.message).problem;

/** N+M, 2 vCPU SEs (1800 RSA TPS each), each VS on 2 SEs, maxSe 2, bufferSe 0, packed. */
const NM0 = {
    vcpusPerSe: "2",
    memoryPerSe: "2048",
    diskPerSe: "20",
    haMode: "HA_MODE_SHARED",
    maxSe: "2",
    bufferSe: "0",
    minScaleoutPerVs: "2",
    maxScaleoutPerVs: "2",
};

describe("N+M with bufferSe 0 is judged after one SE fails, as legacy active/standby is at failover", () => {
    // [case, group fields, RSA TPS, mandatory figure on the group (undefined: passes), advisory figure]
    const cases: Array<[string, Record<string, string>, string, string | undefined, string | undefined]> = [
        // 1000 TPS on 2 SEs: 27.8% each; after one fails the survivor carries all: 55.6% (within 80%).
        ["baseline: fits after one SE fails (advisory gives the figure)", NM0, "1000", undefined, "busiest 55.6%"],
        // 2160 TPS: 60% on each of 2 SEs, 120% on the survivor.
        ["2160 TPS: the survivor needs 120%", NM0, "2160", "the busiest survivor needs 120%", undefined],
        // Its only VS is reported (the group's line points to it): the figure is on the VS.
        [
            "the same load on legacy active/standby: 120% at failover",
            { ...NM0, haMode: "HA_MODE_LEGACY_ACTIVE_STANDBY" },
            "2160",
            "needs 120% of its 1 SE",
            undefined,
        ],
        ["the same load with bufferSe 1, maxSe 3: the buffer SE takes it", { ...NM0, bufferSe: "1", maxSe: "3" }, "2160", undefined, undefined],
        [
            "distributed placement: the survivor needs 120% too",
            { ...NM0, algo: "PLACEMENT_ALGO_DISTRIBUTED" },
            "2160",
            "the busiest survivor needs 120%",
            undefined,
        ],
    ];
    it.each(cases)("%s", async (_name, group, tps, mandatory, advisory) => {
        const resources = groupStack(group, [{ sslTps: tps, sslKeyType: "rsa" }]);
        const out = await runPolicies(NSX, resources);
        const cap = out.filter((v) => v.policyName === CAP);
        if (mandatory === undefined) {
            expect(cap).toEqual([]);
        } else {
            expect(onGroup(out, CAP)).toHaveLength(1);
            expect(cap.every((v) => v.enforcementLevel === "mandatory")).toBe(true);
            expect(cap.map(problemOf).join("\n")).toContain(mandatory);
            expect(Math.max(...cap.map((v) => problemOf(v).length))).toBeLessThanOrEqual(160);
        }
        const adv = onGroup(out, ADV);
        if (advisory === undefined) {
            expect(adv.map(problemOf).filter((p) => p.includes("bufferSe 0"))).toEqual([]);
        } else {
            expect(adv).toHaveLength(1);
            expect(problemOf(adv[0])).toContain(advisory);
        }
    });

    it("the fix it offers passes nsx-alb-se-capacity", async () => {
        const out = await runPolicies(NSX, groupStack({ ...NM0, bufferSe: "1", maxSe: "3" }, [{ sslTps: "2160", sslKeyType: "rsa" }]));
        expect(out.filter((v) => v.policyName === CAP)).toEqual([]);
    });
});

describe("an unplaceable group names its cause", () => {
    const G = { vcpusPerSe: "1", maxSe: "2", bufferSe: "1", minScaleoutPerVs: "1", maxScaleoutPerVs: "4", maxVsPerSe: "1" };
    const cases: Array<[string, Record<string, string>, number, string | undefined]> = [
        ["baseline: 1 VS, minScaleoutPerVs 1, maxSe 2: placed", G, 1, undefined],
        [
            "minScaleoutPerVs 3 > maxSe 2: that cause, singular VS",
            { ...G, minScaleoutPerVs: "3" },
            1,
            'Serviceenginegroup "g-seg": minScaleoutPerVs 3 exceeds maxSe 2: the Controller cannot place its 1 VS.',
        ],
        [
            "3 VSs at maxVsPerSe 1 on maxSe 2: the SE count",
            G,
            3,
            'Serviceenginegroup "g-seg": its 3 VSs need 3 SEs at maxVsPerSe 1 but maxSe is 2: the Controller cannot place them all.',
        ],
    ];
    it.each(cases)("%s", async (_name, group, count, problem) => {
        const out = onGroup(
            await runPolicies(
                NSX,
                groupStack(
                    group,
                    Array.from({ length: count }, () => ({ sslTps: "100" })),
                ),
            ),
            CAP,
        );
        expect(out.map(problemOf)).toEqual(problem === undefined ? [] : [problem]);
    });
});
