/**
 * citrix-broker-throttle and citrix-brokering-capacity across stacks (PERFGUARD_INVENTORY): the
 * platform stack (vdi-platform) owns zone apac (160 ms) and its two Delivery Controllers,
 * throttled at 20 each; the desktop team's stack (desktops-apac) adds catalog apac-catalog (its
 * `zone` the zone's id, perfguard:citrixZone=apac) and Delivery Group apac-eng, peak 30.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, describe, expect, it } from "vitest";
import { policies } from "../../../policies";
import { parseMessage } from "../../../policies/pack/message";
import { runPolicies, UNKNOWN_VALUE } from "../../support/policyHarness";
import { fixture, previewOf, withInventoryEnv } from "../../support/inventoryStacks";
import { citrixBrokerThrottle } from "../../../policies/citrix/citrix-broker-throttle";
import { citrixBrokeringCapacity } from "../../../policies/citrix/citrix-brokering-capacity";
import { citrixEvaluation, citrixFigures } from "../../../policies/citrix/evaluation";
import { CATALOG_TYPE } from "../../../policies/citrix/site";
import { changed, siteOf, SiteSpec } from "./citrixSpec";
import { citrixSection } from "../../../cli/report/citrix";
import { SPANNING, viewOf } from "./citrixCases";

const citrix = policies.filter((p) => p.name.startsWith("citrix"));

async function judge(spec: string | undefined): Promise<Array<[string, string, string, string]>> {
    const out = await withInventoryEnv(spec, () => runPolicies(citrix, previewOf("desktops-apac.json")));
    for (const v of out) {
        expect(v.message).not.toMatch(/SECRETCIPHERTEXT|\[secret\]/);
    }
    return out
        .map(
            (v) =>
                [v.policyName, v.enforcementLevel, v.urn?.split("::").pop() ?? "(stack)", parseMessage(v.message).problem] as [string, string, string, string],
        )
        .sort();
}

describe("the desktop team's apac-eng in the platform stack's zone", () => {
    it("with the platform stack's export: judged in zone apac (160 ms, 20 + 20)", async () => {
        expect(await judge(fixture("vdi-platform.json"))).toEqual([
            [
                "citrix-broker-throttle",
                "mandatory",
                "apac-eng",
                'Delivery Group "apac-eng": the throttles of 2 Delivery Controllers can put 30 concurrent requests on its lock, above the 24 it sustains.',
            ],
            ["citrix-brokering-capacity", "advisory", "apac-eng", 'Delivery Group "apac-eng": at 30 concurrent launches, mean 14.1 s > 12 s.'],
        ]);
    });

    it("names the platform stack's zone, where its controllers' throttles are changed", async () => {
        const out = await withInventoryEnv(fixture("vdi-platform.json"), () => runPolicies(citrix, previewOf("desktops-apac.json")));
        const throttle = out.find((v) => v.policyName === "citrix-broker-throttle");
        expect(throttle?.message).toContain('40 from zone "apac" (stack vdi-platform/prod, deployed 2026-12-04T19:00:00Z) at 160 ms');
    });

    it("without an inventory: not checked, naming PERFGUARD_INVENTORY, never the fact the catalog already declares", async () => {
        const out = await withInventoryEnv(undefined, () => runPolicies(citrix, previewOf("desktops-apac.json")));
        expect(out.length).toBeGreaterThan(0);
        for (const v of out) {
            const m = parseMessage(v.message);
            expect(v.enforcementLevel).toBe("advisory");
            expect(`${m.problem}\n${m.basis.join("\n")}`).toMatch(/not checked/);
            expect(m.fix).toMatch(/^set PERFGUARD_INVENTORY/);
        }
    });
});

describe("the platform team's preview, judged with the desktop team's deployed apac-eng", () => {
    /** [policy, level, resource, problem, last Basis line] of each verdict on the platform's stack, `change` applied to its controllers. */
    async function platform(throttle: string): Promise<string[][]> {
        const resources = previewOf("vdi-platform.json", (r) =>
            r.type.includes("VirtualMachine")
                ? {
                      ...r,
                      props: {
                          ...r.props,
                          extraConfig: { ...(r.props.extraConfig as object), "guestinfo.perfguard.throttleMaxConcurrentTransactions": throttle },
                      },
                  }
                : r,
        );
        const out = await withInventoryEnv(fixture("desktops-apac.json"), () => runPolicies(citrix, resources));
        return out
            .map((v) => [
                v.policyName,
                v.enforcementLevel,
                v.urn?.split("::").pop() ?? "(stack)",
                parseMessage(v.message).problem,
                parseMessage(v.message).basis.at(-1) ?? "",
            ])
            .sort();
    }
    it.each([
        ["throttles of 10 + 10 put 20 on apac-eng's lock: within the 24 it sustains (a pass)", "10", []],
        [
            "raised to 20 + 20: 30 (apac-eng's own peak) > 24, on the platform's zone apac, naming the group's stack",
            "20",
            [
                [
                    "citrix-broker-throttle",
                    "mandatory",
                    "apac",
                    'Delivery Group "apac-eng": the throttles of 2 Delivery Controllers can put 30 concurrent requests on its lock, above the 24 it sustains.',
                    "the Delivery Group is stack desktops-apac/prod's (PERFGUARD_INVENTORY, deployed 2026-12-04T22:15:00Z); this stack's Zone \"apac\" feeds its lock",
                ],
            ],
        ],
    ])("%s", async (_name, throttle, expected) => {
        expect(await platform(throttle)).toEqual(expected);
    });
});

describe("the source's advice bounds the safe concurrency from 160 ms", () => {
    const one = (rtt: number): SiteSpec => ({
        zones: [{ name: "z", rtt, peak: 10, users: 1000 }],
        groups: [{ name: "g", zone: "z" }],
        controllers: [
            { name: "d1", zone: "z", throttle: 5 },
            { name: "d2", zone: "z", throttle: 5 },
        ],
    });
    it.each([
        ["90 ms (baseline: the model's 44)", 90, {}, 44, 22],
        ["160 ms: the model's 25, the advice's 24", 160, {}, 24, 12],
        ["165 ms: interpolated, still within 24", 165, {}, 24, 12],
        ["200 ms: the model's 20", 200, {}, 20, 10],
        [
            "160 ms with relaxed targets (20 s): the advice was for the source's, the measured 36 decides",
            160,
            { targetResponseS: 20, errorBudgetPct: 0.1 },
            35,
            17,
        ],
    ] as const)("%s", (_name, rtt, targets, safe, per) => {
        const e = citrixEvaluation(viewOf(siteOf(one(rtt))), targets);
        expect(e.zones[0].lockLimit).toBe(safe);
        expect(e.zones[0].perController).toBe(per);
    });
});

describe("a zone at an RTT the source did not measure says so on its verdicts' Basis and its figures", () => {
    const zone = (rtt: number): SiteSpec => ({
        zones: [{ name: "sat", rtt, peak: 40, users: 4000 }],
        groups: [{ name: "sg", zone: "sat" }],
        controllers: [
            { name: "d1", zone: "sat", throttle: 20 },
            { name: "d2", zone: "sat", throttle: 20 },
        ],
    });
    it.each([
        ["160 ms, measured (baseline)", 160, undefined],
        ["120 ms", 120, 'RTT not measured, the model interpolated between 90 and 160 ms: zone "sat-zone" (120 ms)'],
        ["300 ms", 300, 'RTT not measured, the model extrapolated beyond 250 ms: zone "sat-zone" (300 ms)'],
    ] as const)("%s", async (_name, rtt, line) => {
        const found = await runPolicies([citrixBrokerThrottle, citrixBrokeringCapacity], siteOf(zone(rtt)));
        const mine = found.filter((v) => v.urn?.endsWith("::sg-group"));
        expect(mine.map((v) => v.policyName).sort()).toEqual(["citrix-broker-throttle", "citrix-brokering-capacity"]);
        for (const v of mine) {
            const basis = parseMessage(v.message).basis;
            expect(basis.filter((b) => b.startsWith("RTT not measured"))).toEqual(line === undefined ? [] : [line]);
        }
        const figures = citrixFigures(viewOf(siteOf(zone(rtt))));
        const z = figures.find((f) => f.kind === "zone")!;
        const g = figures.find((f) => f.kind === "deliveryGroup")!;
        const note =
            line === undefined ? undefined : `RTT not measured: the model ${line.replace(/^RTT not measured, the model /, "").replace(/: zone.*$/, "")}`;
        expect(z.figures.find((f) => f.key === "rttMs")?.note).toBe(note);
        expect(z.figures.find((f) => f.key === "lockLimit")?.note).toBe(note);
        expect(g.figures.find((f) => f.key === "safe")?.note).toBe(line);
    });
});

describe("check --report proposes a per-controller throttle only where a verdict does, else labels it a suggestion", () => {
    const cells = (spec: SiteSpec) => {
        const lines = citrixSection(viewOf(siteOf(spec)), {}).split("\n");
        // The "throttle per controller" column: the zone table's 7th, the lock table's 10th (the last).
        const column = (prefix: string, i: number) =>
            lines
                .find((l) => l.startsWith(prefix))
                ?.slice(2, -2)
                .split(" | ")[i];
        return { zone: column('| zone "s-zone"', 6), group: column('| Delivery Group "g-group"', 9) };
    };
    it.each([
        ["a spanning group within its lock: no verdict, suggestions", SPANNING, { zone: "24 (suggestion)", group: "24 (suggestion)" }],
        // Throttles of 40 + 40 put 80 on a lock that sustains 65: citrix-broker-throttle's verdict proposes it.
        [
            "its throttles above what the lock sustains: the verdict's value",
            changed(SPANNING, (s) => {
                s.controllers.forEach((c) => {
                    c.throttle = 40;
                });
                s.zones.forEach((z) => {
                    z.peak = 80;
                });
            }),
            undefined,
        ],
    ] as const)("%s", async (_name, spec, expected) => {
        const got = cells(spec);
        const verdicts = (await runPolicies([citrixBrokerThrottle], siteOf(spec))).filter((v) => v.enforcementLevel === "mandatory");
        if (expected) {
            expect(verdicts).toEqual([]);
            expect(got).toEqual(expected);
        } else {
            expect(verdicts.map((v) => v.urn?.split("::").pop())).toEqual(["g-group"]);
            expect(got.group).toMatch(/^\d+$/);
            expect(parseMessage(verdicts[0].message).fix).toContain(` ${got.group} `);
        }
    });
});

describe("several unthrottled controllers of a zone within its limit: one cause, one mandatory verdict", () => {
    const ZONE_LOCK: SiteSpec = {
        zones: [{ name: "a", rtt: 160, peak: 20, users: 1000 }],
        groups: [],
        controllers: [
            { name: "d1", zone: "a", throttle: 12 },
            { name: "d2", zone: "a", throttle: 12 },
        ],
    };
    it.each([
        ["both throttled (baseline)", ZONE_LOCK, []],
        [
            "d2 unthrottled: the verdict is on d2",
            changed(ZONE_LOCK, (s) => {
                delete s.controllers[1].throttle;
            }),
            ["d2"],
        ],
        [
            "both unthrottled: one verdict, on the zone, naming them",
            changed(ZONE_LOCK, (s) => {
                s.controllers.forEach((c) => {
                    delete c.throttle;
                });
            }),
            ["a-zone"],
        ],
    ] as const)("%s", async (_name, spec, on) => {
        const found = (await runPolicies([citrixBrokerThrottle], siteOf(spec))).filter((v) => v.enforcementLevel === "mandatory");
        expect(found.map((v) => v.urn?.split("::").pop())).toEqual(on);
        for (const v of found) {
            const m = parseMessage(v.message);
            expect(m.fix).toBe(
                'set the DWORD HKLM\\Software\\Citrix\\DesktopServer\\ThrottledRequestAddressMaxConcurrentTransactions to 12 on each of zone "a-zone"\'s 2 Delivery Controllers (and declare it: extraConfig "guestinfo.perfguard.throttleMaxConcurrentTransactions": "12")',
            );
            expect(m.basis).toContain(
                "the declared peak of 20 is within the 24 its most exposed lock sustains" + (on[0] === "a-zone" ? ": nothing caps a storm above it" : ""),
            );
            if (on[0] === "a-zone") {
                expect(m.basis).toContain('without a throttle: "d1", "d2"');
            }
        }
    });
});

describe("a lock over from several zones: the fix declares the value it sets, never a placeholder", () => {
    /** One group over two satellites (160 and 200 ms), every controller at 40: 120 on a lock that sustains 21. */
    const TWO_SATELLITES: SiteSpec = {
        zones: [
            { name: "s1", rtt: 160, peak: 40, users: 1000 },
            { name: "s2", rtt: 200, peak: 40, users: 1000 },
        ],
        groups: [{ name: "g", zone: "s1", zones: ["s1", "s2"] }],
        controllers: [
            { name: "d1", zone: "s1", throttle: 40 },
            { name: "d2", zone: "s2", throttle: 40 },
            { name: "d3", zone: "s2", throttle: 40 },
        ],
    };
    it.each([
        [
            "throttles at 7 each (baseline): within what the lock sustains",
            changed(TWO_SATELLITES, (s) => {
                s.controllers.forEach((c) => {
                    c.throttle = 7;
                });
            }),
            undefined,
        ],
        [
            "throttles at 40 each: both zones lowered to 7, declared as 7",
            TWO_SATELLITES,
            'set the DWORD HKLM\\Software\\Citrix\\DesktopServer\\ThrottledRequestAddressMaxConcurrentTransactions (and declare it: extraConfig "guestinfo.perfguard.throttleMaxConcurrentTransactions": "7") to 7 on zone "s1-zone"\'s Delivery Controller, 7 on each of zone "s2-zone"\'s 2 Delivery Controllers; or split the Delivery Group per zone (one lock each)',
        ],
    ] as const)("%s", async (_name, spec, fix) => {
        const found = (await runPolicies([citrixBrokerThrottle], siteOf(spec))).filter((v) => v.urn?.endsWith("::g-group"));
        expect(found.map((v) => parseMessage(v.message).fix)).toEqual(fix === undefined ? [] : [fix]);
        expect(found.every((v) => !v.message.includes("<value>"))).toBe(true);
    });
});

/**
 * Zones joined across Sites and stacks (issue 32, fail closed): an unrelated project's zone of
 * the same name never takes the platform's controllers nor the desktop team's catalog; where the
 * Sites cannot be told apart, the join is named, never first-wins.
 */
describe("a zone name two Sites or stacks share", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-zonejoin-"));
    afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

    /** An export of `name` as project `project`, its hostnames replaced (undefined: removed), its zone id `zoneId`. */
    function variant(name: string, project: string | undefined, hostname: string | null | undefined, zoneId?: string): string {
        let text = fs.readFileSync(fixture(name), "utf8");
        const original = JSON.parse(text) as { deployment: { resources: Array<{ urn: string }> } };
        const from = original.deployment.resources[0].urn.split("::")[1];
        if (project) {
            text = text.split(`::${from}::`).join(`::${project}::`);
        }
        if (zoneId) {
            text = text.split("5e2a7c1d-3b4f-4e6a-8c9d-0a1b2c3d4e5f").join(zoneId);
        }
        const doc = JSON.parse(text) as {
            deployment: { resources: Array<{ type: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }> };
        };
        for (const r of doc.deployment.resources.filter((x) => x.type === "pulumi:providers:citrix")) {
            for (const props of [r.inputs, r.outputs]) {
                if (props && hostname === null) {
                    delete props.hostname;
                } else if (props && hostname !== undefined) {
                    props.hostname = hostname;
                }
            }
        }
        const file = path.join(tmp, `${project ?? from}-${hostname ?? "none"}-${zoneId ?? "id"}.json`);
        fs.writeFileSync(file, JSON.stringify(doc));
        return file;
    }

    const OTHER_ZONE = "0f0e0d0c-0b0a-4908-8706-050403020100";
    const PROVIDER = { urn: "urn:pulumi:prod::desktops-apac::pulumi:providers:citrix::site", props: { hostname: "ddc.apac.example.com" } };
    /** The desktop team's preview: its catalog named by its fact only (zone unset), its Citrix resources on `provider`. */
    const desktops = (factOnly: boolean, provider?: typeof PROVIDER) =>
        previewOf("desktops-apac.json", (r) => ({
            ...r,
            ...(factOnly && r.type.endsWith("MachineCatalog") ? { props: { ...r.props, zone: undefined } } : {}),
            ...(provider && r.type.startsWith("citrix:") ? { provider } : {}),
        }));

    async function throttle(spec: string, preview = previewOf("desktops-apac.json")): Promise<string[]> {
        const out = await withInventoryEnv(spec, () =>
            runPolicies(
                citrix.filter((p) => p.name === "citrix-broker-throttle"),
                preview,
            ),
        );
        return out.map((v) => `${v.enforcementLevel} ${v.urn?.split("::").pop() ?? "(stack)"}: ${parseMessage(v.message).problem}`).sort();
    }

    const BASELINE = [
        'mandatory apac-eng: Delivery Group "apac-eng": the throttles of 2 Delivery Controllers can put 30 concurrent requests on its lock, above the 24 it sustains.',
    ];
    const NOT_PLACED = ['advisory (stack): 1 resource not checked: its catalog "apac-catalog" has a zone that cannot be resolved (DeliveryGroup "apac-eng").'];

    it("baseline: the platform stack alone, the desktop team's catalog by the zone's id", async () => {
        expect(await throttle(fixture("vdi-platform.json"))).toEqual(BASELINE);
    });

    const emea = () => variant("vdi-platform.json", "vdi-emea", "ddc.emea.example.com", OTHER_ZONE);
    const cases: Array<[string, () => { spec: string; preview?: ReturnType<typeof previewOf> }, string[]]> = [
        // Before: the first zone "apac" found (vdi-emea's) took the platform's controllers too.
        ["an unrelated project's zone apac on another Site: not joined", () => ({ spec: `${fixture("vdi-platform.json")},${emea()}` }), BASELINE],
        [
            "the same, no provider declaring an endpoint: joined by the zone id; each stack's controllers stay in their own zone",
            () => ({
                spec: `${variant("vdi-platform.json", undefined, null)},${variant("vdi-platform.json", "vdi-emea", null, OTHER_ZONE)}`,
            }),
            BASELINE,
        ],
        [
            "the catalog by perfguard:citrixZone only, on the platform's endpoint: the platform's zone",
            () => ({ spec: `${fixture("vdi-platform.json")},${emea()}`, preview: desktops(true, PROVIDER) }),
            BASELINE,
        ],
        [
            "the catalog by perfguard:citrixZone only, its provider without endpoint: two zones apac, not checked",
            () => ({ spec: `${fixture("vdi-platform.json")},${emea()}`, preview: desktops(true) }),
            NOT_PLACED,
        ],
        [
            "the catalog by perfguard:citrixZone only, no stack declaring an endpoint: not checked",
            () => ({
                spec: `${variant("vdi-platform.json", undefined, null)},${variant("vdi-platform.json", "vdi-emea", null, OTHER_ZONE)}`,
                preview: desktops(true),
            }),
            NOT_PLACED,
        ],
    ];
    it.each(cases)("%s", async (_name, setup, expected) => {
        const { spec, preview } = setup();
        expect(await throttle(spec, preview)).toEqual(expected);
    });

    it("the ambiguity names both stacks' zones (brokering capacity, on the catalog)", async () => {
        const spec = `${fixture("vdi-platform.json")},${emea()}`;
        const out = await withInventoryEnv(spec, () =>
            runPolicies(
                citrix.filter((p) => p.name === "citrix-brokering-capacity"),
                desktops(true),
            ),
        );
        expect(out.flatMap((v) => parseMessage(v.message).basis)).toContain(
            'its perfguard:citrixZone matches 2 zones of Sites or stacks that cannot be told apart (Zone "apac" (stack vdi-emea/prod), Zone "apac" (stack vdi-platform/prod)): 1 (MachineCatalog "apac-catalog")',
        );
    });

    it("two Sites of one stack with a zone apac each: a controller naming apac is not checked, naming both", async () => {
        const site = (host: string) => ({
            urn: `urn:pulumi:test::perfguard-test::pulumi:providers:citrix::${host}`,
            props: { hostname: `${host}.example.com` },
        });
        const zone = (name: string, host: string) => ({
            type: "citrix:index/zone:Zone",
            name,
            props: { name: "apac", metadatas: [{ name: "perfguard:rttMs", value: "160" }] },
            provider: site(host),
        });
        const controller = {
            type: "vsphere:index/virtualMachine:VirtualMachine",
            name: "ddc-1",
            props: {
                extraConfig: {
                    "guestinfo.perfguard.citrixRole": "deliveryController",
                    "guestinfo.perfguard.citrixZone": "apac",
                    "guestinfo.perfguard.throttleMaxConcurrentTransactions": "20",
                },
            },
        };
        const one = await withInventoryEnv(undefined, () =>
            runPolicies(
                citrix.filter((p) => p.name === "citrix-broker-throttle"),
                [zone("apac-a", "ddc-a"), controller],
            ),
        );
        expect(one.map((v) => parseMessage(v.message).basis.concat(parseMessage(v.message).problem).join("\n")).join("\n")).not.toMatch(/cannot be told apart/);
        const two = await withInventoryEnv(undefined, () =>
            runPolicies(
                citrix.filter((p) => p.name === "citrix-broker-throttle"),
                [zone("apac-a", "ddc-a"), zone("apac-b", "ddc-b"), controller],
            ),
        );
        expect(two.flatMap((v) => parseMessage(v.message).basis)).toContain(
            'its perfguard:citrixZone matches 2 zones of Sites or stacks that cannot be told apart (Zone "apac-a", Zone "apac-b"): 1 (VirtualMachine "ddc-1")',
        );
    });
});

describe("externalControllers: a key that names no zone is reported, never dropped", () => {
    // Zone emea-east (160 ms), group eu (peak 20), its two controllers in another stack at 10 each.
    const spec: SiteSpec = {
        zones: [{ name: "emea-east", rtt: 160, peak: 20, users: 2000 }],
        groups: [{ name: "eu", zone: "emea-east", peak: 20 }],
        controllers: [],
    };
    const ddcs = [
        { name: "ddc-a", throttle: 10 },
        { name: "ddc-b", throttle: 10 },
    ];
    /** [level, resource, problem] of each citrix-broker-throttle verdict; not-checked reasons from its Basis. */
    async function judge(resources: ReturnType<typeof siteOf>, externals: Record<string, unknown>): Promise<string[][]> {
        const out = await withInventoryEnv(undefined, () =>
            runPolicies([citrixBrokerThrottle], resources, { "citrix-broker-throttle": { externalControllers: externals } }),
        );
        return out
            .map((v) => [v.enforcementLevel, v.urn?.split("::").pop() ?? "(stack)", parseMessage(v.message).problem, ...parseMessage(v.message).basis])
            .sort();
    }
    const unknownName = (): ReturnType<typeof siteOf> =>
        siteOf(spec).map((r) => (r.name === "emea-east-zone" ? { ...r, props: { ...(r.props as object), name: UNKNOWN_VALUE } } : r));
    /** The baseline plus a catalog whose perfguard:citrixZone names zone "apac", which another stack declares. */
    const otherStacksZone = (): ReturnType<typeof siteOf> => [
        ...siteOf(spec),
        { type: CATALOG_TYPE, name: "apac-cat", props: { metadatas: [{ name: "perfguard:citrixZone", value: "apac" }] } },
    ];
    const twoSites = (): ReturnType<typeof siteOf> => {
        const site = (host: string) => ({
            urn: `urn:pulumi:test::perfguard-test::pulumi:providers:citrix::${host}`,
            props: { hostname: `${host}.example.com` },
        });
        const zones = siteOf(spec).filter((r) => r.name === "emea-east-zone");
        return [...siteOf(spec), { ...zones[0], name: "emea-east-b", provider: site("b") }];
    };
    const cases: Array<[string, () => ReturnType<typeof siteOf>, Record<string, unknown>, string[][]]> = [
        ["baseline: the key names zone emea-east, its controllers counted (a pass)", () => siteOf(spec), { "emea-east": ddcs }, []],
        [
            'a typo "emea-eats": the key named, not checked on the stack (it may name another stack\'s zone); the zone has no controller',
            () => siteOf(spec),
            { "emea-eats": ddcs },
            [
                [
                    "advisory",
                    "(stack)",
                    "2 resources not checked, for 2 reasons (below); their verdicts are unknown.",
                    'externalControllers key "emea-eats" names a zone this stack does not declare: its controllers are counted in no zone: 1 (the stack)',
                    'none of its Delivery Controllers is in this stack or in externalControllers: 1 (Zone "emea-east-zone")',
                ],
            ],
        ],
        [
            "a stack with no Citrix resource (an org-wide config on an NSX team's stack): nothing said of the key",
            () => [{ type: "avi:index/virtualservice:Virtualservice", name: "web", props: { name: "web" } }],
            { "emea-eats": ddcs },
            [],
        ],
        [
            "two unknown keys beside the right one: both named, sorted",
            () => siteOf(spec),
            { "emea-wset": ddcs, "emea-east": ddcs, "apac-x": ddcs },
            [
                [
                    "advisory",
                    "(stack)",
                    "1 resource not checked, for 1 reason (below); their verdicts are unknown.",
                    'externalControllers keys "apac-x", "emea-wset" name a zone this stack does not declare: their controllers are counted in no zone: 1 (the stack)',
                ],
            ],
        ],
        [
            "the key names another stack's zone that a catalog's perfguard:citrixZone names too: no verdict on the key (the catalog's zone is another stack's: citrix-brokering-capacity says so); emea-east keeps its own",
            otherStacksZone,
            { apac: ddcs },
            [
                [
                    "advisory",
                    "(stack)",
                    '1 resource not checked: none of its Delivery Controllers is in this stack or in externalControllers (Zone "emea-east-zone").',
                ],
            ],
        ],
        [
            "the zone's name unknown in this preview: the key may name it, so the zone is not checked (no error)",
            unknownName,
            { "emea-eats": ddcs },
            [
                [
                    "advisory",
                    "(stack)",
                    "1 resource not checked, for 2 reasons (below); their verdicts are unknown.",
                    'its name is unknown in this preview, and externalControllers key "emea-eats" names no known zone: it may be this one: 1 (Zone "emea-east-zone")',
                    'its name is unknown in this preview, so no Delivery Controller\'s perfguard:citrixZone can match it: 1 (Zone "emea-east-zone")',
                ],
            ],
        ],
    ];
    it.each(cases)("%s", async (_name, resources, externals, expected) => {
        const got = await judge(resources(), externals);
        expect(got).toEqual(expected);
    });

    it("two Sites of one stack with a zone emea-east each: the key names both, so both zones are not checked", async () => {
        const got = await judge(twoSites(), { "emea-east": ddcs });
        const text = got.flat().join("\n");
        expect(text).toContain('externalControllers key "emea-east" matches 2 zones of Sites that cannot be told apart');
        expect(text).toContain("so its controllers are not counted");
    });
});
