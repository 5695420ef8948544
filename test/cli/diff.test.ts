/**
 * `perfguard diff`'s comparison, table-driven per system: a compliant base, and a head with one
 * change (a figure changes, an entity appears or disappears, a verdict flips, a value is unknown
 * on one side). Figures come from the same adapter the command uses (cli/diff/figures.ts), the
 * verdicts from the policies themselves; the CLI end to end is in diff.cli.test.ts.
 */
import { describe, expect, it } from "vitest";
import { diffStates, DiffResult, figureChange, Verdict } from "../../cli/diff/compare";
import { SideConfig, stackFigures } from "../../cli/diff/figures";
import { COMMENT_LIMIT, DiffReport, renderMarkdown, renderText, summaryLine } from "../../cli/diff/render";
import { exitCodeOf } from "../../cli/diff/run";
import { policies } from "../../policies";
import type { Figure } from "../../policies/pack/figures";
import { duration, pct } from "../../policies/pack/format";
import { ResourceView, StackView } from "../../policies/pack/resources";
import { runPolicies, TestResource, UNKNOWN_VALUE, urnOf } from "../support/policyHarness";
import { citrixStack, ZONE } from "../policies/citrix/citrixFixtures";
import { nsxStack, SE_GROUP, seGroupProps } from "../policies/nsx-alb/nsxFixtures";
import { dom0Service, setTags, VM, XCP01_UUID, xenBaselineConfig, xenStack } from "../policies/xen/xenFixtures";

type PolicyConfig = Record<string, Record<string, unknown>>;

/** The stack as AnalyzeStack gives it: property dependencies name resources of the same list by URN. */
function viewOf(resources: TestResource[]): StackView {
    const urnByName = new Map(resources.map((r) => [r.name, r.urn ?? urnOf(r.type, r.name)]));
    return new StackView(
        resources.map(
            (r) =>
                new ResourceView(
                    urnByName.get(r.name)!,
                    r.type,
                    r.name,
                    structuredClone(r.props),
                    Object.fromEntries(Object.entries(r.propertyDependencies ?? {}).map(([k, names]) => [k, names.map((n) => urnByName.get(n) ?? n)])),
                ),
        ),
    );
}

async function sideOf(resources: TestResource[], config: PolicyConfig): Promise<{ figures: ReturnType<typeof stackFigures>; verdicts: Verdict[] }> {
    const sideConfig: SideConfig = Object.fromEntries(
        Object.entries(config).map(([k, v]) => [k, { enforcementLevel: "advisory", properties: v }]),
    ) as unknown as SideConfig;
    const violations = await runPolicies(policies, resources, config);
    return {
        figures: stackFigures(viewOf(resources), sideConfig),
        verdicts: violations.map((v) => ({
            policy: v.policyName,
            urn: v.urn ?? "",
            entity: v.urn ? v.urn.split("::").pop()! : "the stack",
            level: v.enforcementLevel === "mandatory" ? "mandatory" : "advisory",
            problem: v.message.split("\n")[0],
            message: v.message,
        })),
    };
}

async function diff(base: TestResource[], head: TestResource[], config: PolicyConfig = {}): Promise<DiffResult> {
    return diffStates(await sideOf(base, config), await sideOf(head, config));
}

/**
 * "entity: figure before → after (direction)" for every changed figure; "+ entity" / "- entity" for added/removed.
 * A Citrix entity is named kind:id: a zone and its own lock (no Delivery Group) share the zone's resource name.
 */
function changes(r: DiffResult): string[] {
    const name = (e: DiffResult["entities"][number]) => (e.system === "citrix" ? `${e.kind}:${e.id}` : e.id);
    return r.entities
        .filter((e) => e.status !== "unchanged")
        .flatMap((e) =>
            e.status === "added"
                ? [`+ ${name(e)}`]
                : e.status === "removed"
                  ? [`- ${name(e)}`]
                  : [
                        ...(e.notChecked.before !== e.notChecked.after
                            ? [`${name(e)}: not checked ${e.notChecked.before ?? "-"} → ${e.notChecked.after ?? "-"}`]
                            : []),
                        ...e.figures.map(
                            (f) =>
                                `${name(e)}: ${f.key} ${f.before?.value === undefined ? `(${f.before?.notChecked ?? "none"})` : f.before.text} → ${f.after?.value === undefined ? `(${f.after?.notChecked ?? "none"})` : f.after.text} (${f.direction})`,
                        ),
                    ],
        );
}

function verdictChanges(r: DiffResult): string[] {
    return r.verdicts.map((v) => `${v.change === "appeared" ? "+" : "-"} ${v.verdict.level} ${v.verdict.policy} -> ${v.verdict.entity}`);
}

const xenConfig = { "xen-guest-network-share": xenBaselineConfig(), "xen-dom0-workload": xenBaselineConfig() };
const apacZone: TestResource = {
    type: ZONE,
    name: "apac-zone",
    props: {
        name: "apac",
        metadatas: [
            { name: "perfguard:rttMs", value: "45" },
            { name: "perfguard:peakConcurrentLaunches", value: "10" },
        ],
    },
};

interface Case {
    readonly name: string;
    readonly base: TestResource[];
    readonly head: TestResource[];
    readonly config?: PolicyConfig;
    readonly figures: string[];
    readonly verdicts: string[];
}

const CASES: Case[] = [
    // Citrix: zone emea at 160 ms, peak 20 under two throttles of 12 (24), 1000 users.
    { name: "citrix: no change", base: citrixStack(), head: citrixStack(), figures: [], verdicts: [] },
    {
        name: "citrix: a figure changes (3000 users instead of 1000: launch takes longer)",
        base: citrixStack(),
        head: citrixStack({ users: "3000" }),
        // Launch time scales with users at the same brokered rate (2.12/s): 1000 → 8 min, 3000 → 24 min.
        figures: ["zoneLock:emea-zone: launchTimeS 8 min → 24 min (worse)"],
        verdicts: [],
    },
    {
        name: "citrix: an entity appears (zone apac)",
        base: citrixStack(),
        head: citrixStack({ extra: [apacZone] }),
        // The zone and its own lock (no Delivery Group names it); the Site's total gains apac's 6.91/s.
        figures: ["site:site: brokeredPerS 2.12 → 9.03 (better)", "+ zone:apac-zone", "+ zoneLock:apac-zone"],
        verdicts: [],
    },
    {
        name: "citrix: an entity disappears (zone apac)",
        base: citrixStack({ extra: [apacZone] }),
        head: citrixStack(),
        figures: ["site:site: brokeredPerS 9.03 → 2.12 (worse)", "- zone:apac-zone", "- zoneLock:apac-zone"],
        verdicts: [],
    },
    {
        name: "citrix: a verdict flips (RTT 160 → 260 ms: a separate Site is needed)",
        base: citrixStack(),
        head: citrixStack({ rttMs: "260" }),
        // The zone's lock sustains 15 at 260 ms, so the proposed throttle per controller (two) is 7;
        // the lock's brokered rate is the Site's whole total (its only group).
        figures: [
            "site:site: brokeredPerS 2.12 → 1.31 (worse)",
            "zone:emea-zone: rttMs 160 ms → 260 ms (worse)",
            "zone:emea-zone: lockLimit 24 → 15 (worse)",
            "zone:emea-zone: perController 12 → 7 (changed)",
            "zoneLock:emea-zone: meanResponseS 9.4 s → 15.3 s (worse)",
            "zoneLock:emea-zone: timedOutPct <0.0001% → 0.011% (worse)",
            "zoneLock:emea-zone: brokeredPerS 2.12 → 1.31 (worse)",
            "zoneLock:emea-zone: launchTimeS 8 min → 13 min (worse)",
        ],
        // The throttles (24) now exceed what the lock sustains at 260 ms (15): a second mandatory verdict.
        verdicts: [
            "+ mandatory citrix-broker-throttle -> emea-zone",
            "+ mandatory citrix-zone-rtt-limit -> emea-zone",
            "+ advisory citrix-brokering-capacity -> emea-zone",
        ],
    },
    {
        name: "citrix: unknown on one side (RTT known after apply)",
        base: citrixStack(),
        head: citrixStack({ rttMs: UNKNOWN_VALUE }),
        // The Site's sums are not known either (not "0 satellite requests, better"): fail closed.
        figures: [
            'site:site: brokeredPerS 2.12 → (not known while the lock of zone "emea-zone" is not checked) (changed)',
            'site:site: databaseConcurrency 24 → (not known while the perfguard:rttMs of zone "emea-zone" is not known) (changed)',
            "zone:emea-zone: rttMs 160 ms → (its perfguard:rttMs is unknown) (changed)",
            "zone:emea-zone: concurrency 20 → (its perfguard:rttMs is unknown) (changed)",
            "zone:emea-zone: lockLimit 24 → (its perfguard:rttMs is unknown) (changed)",
            "zone:emea-zone: perController 12 → (its perfguard:rttMs is unknown) (changed)",
            'zoneLock:emea-zone: not checked - → the perfguard:rttMs of its zone "emea" is unknown in this preview',
            ...["meanResponseS 9.4 s", "timedOutPct <0.0001%", "brokeredPerS 2.12", "launchTimeS 8 min"].map(
                (f) => `zoneLock:emea-zone: ${f} → (the perfguard:rttMs of its zone "emea" is unknown in this preview) (changed)`,
            ),
        ],
        // Every policy that needs the RTT says "not checked" (advisory), none passes it.
        verdicts: [
            "+ advisory citrix-broker-throttle -> the stack",
            "+ advisory citrix-brokering-capacity -> the stack",
            "+ advisory citrix-site-database-load -> the stack",
            "+ advisory citrix-zone-rtt-limit -> emea-zone",
        ],
    },
    // NSX ALB: web-seg (4 vCPUs, N+M, distributed) with shop-vs (SSL) and api-vs (L4).
    {
        name: "nsx-alb: a figure changes (shop 1000 → 1050 RSA TPS)",
        base: nsxStack(),
        head: nsxStack({ shop: { sslTps: "1050" } }),
        // One quantity, one row: shop's need is the busiest SE's CPU (the group's row names it), not three rows.
        figures: ["web: busiestSeCpuPct 72.4% → 74.3% (worse)"],
        verdicts: [],
    },
    {
        // api is the only throughput on the busiest SE: its need is that row, so again one row.
        name: "nsx-alb: another VS changes (api 3 → 4 Gbps)",
        base: nsxStack(),
        head: nsxStack({ api: { throughputGbps: "4" } }),
        figures: ["web: busiestSeThroughputPct 31.6% → 42.1% (worse)"],
        verdicts: [],
    },
    {
        // Shop's SSL and api's throughput both change: two distinct quantities, two rows.
        name: "nsx-alb: two VSs change (shop 1050 RSA TPS, api 4 Gbps)",
        base: nsxStack(),
        head: nsxStack({ shop: { sslTps: "1050" }, api: { throughputGbps: "4" } }),
        figures: ["web: busiestSeCpuPct 72.4% → 74.3% (worse)", "web: busiestSeThroughputPct 31.6% → 42.1% (worse)"],
        verdicts: [],
    },
    {
        name: "nsx-alb: an entity appears (SE group batch)",
        base: nsxStack(),
        head: nsxStack({ extra: [{ type: SE_GROUP, name: "batch-seg", props: seGroupProps({ name: "batch" }) }] }),
        figures: ["+ batch"],
        verdicts: [],
    },
    {
        name: "nsx-alb: a verdict flips (shop at 4000 RSA TPS no longer fits)",
        base: nsxStack(),
        head: nsxStack({ shop: { sslTps: "4000" } }),
        figures: ["web: busiestSeCpuPct 72.4% → 187.7% (worse)", "web: requiredVcpusPerSe (none) → 11 (changed)"],
        verdicts: ["+ mandatory nsx-alb-se-capacity -> web-seg", "+ mandatory nsx-alb-se-capacity -> shop-vs"],
    },
    {
        name: "nsx-alb: unknown on one side (vcpusPerSe known after apply)",
        base: nsxStack(),
        head: nsxStack({ group: { vcpusPerSe: UNKNOWN_VALUE } }),
        figures: [
            "web: not checked - → the sizing of its SE group is unknown in this preview (vcpusPerSe)",
            "web: busiestSeCpuPct 72.4% → (none) (changed)",
            "web: busiestSeThroughputPct 31.6% → (none) (changed)",
            "web: busiestSeOpenConnectionsPct 31.3% → (none) (changed)",
            "web: busiestSeIngressPct 0% → (none) (changed)",
            "web: sesNeeded 1 → (none) (changed)",
            "api-vs: not checked - → the sizing of its SE group is unknown in this preview (vcpusPerSe)",
            "shop-vs: not checked - → the sizing of its SE group is unknown in this preview (vcpusPerSe)",
        ],
        // The per-group size policies cannot read the size either: not checked, advisory.
        verdicts: ["+ advisory nsx-alb-se-dedicated-dispatcher -> web-seg", "+ advisory nsx-alb-se-minimum-resources -> web-seg"],
    },
    // Xen: the compliant baseline of test/policies/xen (two hosts, every need met).
    {
        name: "xen: a figure changes (db needs 50 instead of 45 MB/s, still met)",
        base: xenStack(),
        head: xenStack({ name: "db", edit: setTags("perfguard:networkMBps=50") }),
        config: xenConfig,
        figures: [`${XCP01_UUID}: guest:db:predictedMBps 45 MB/s → 50 MB/s (better)`, `${XCP01_UUID}: guest:db:needMBps 45 MB/s → 50 MB/s (changed)`],
        verdicts: [],
    },
    {
        name: "xen: an entity appears (a guest on a new host without a link figure)",
        base: xenStack(),
        head: xenStack({ add: [{ type: VM, name: "batch", props: { nameLabel: "batch", affinityHost: "xcp-03", tags: ["perfguard:networkMBps=10"] } }] }),
        config: xenConfig,
        figures: ["+ xcp-03"],
        verdicts: ["+ advisory xen-guest-network-share -> the stack"],
    },
    {
        name: "xen: a verdict flips (a backup service in dom0 of xcp-01)",
        base: xenStack(),
        head: xenStack({ add: [dom0Service("backup", XCP01_UUID, undefined, "60")] }),
        config: xenConfig,
        figures: [
            `${XCP01_UUID}: dom0DeclaredMBps 2 MB/s → 62 MB/s (worse)`,
            `${XCP01_UUID}: shortGuests 0 of 2 → 1 of 2 (worse)`,
            `${XCP01_UUID}: guest:db:predictedMBps 45 MB/s → 35 MB/s (worse)`,
            `${XCP01_UUID}: dom0:backup:costMBps (none) → 10 MB/s (changed)`,
        ],
        verdicts: ["+ advisory xen-dom0-workload -> backup", "+ advisory xen-guest-network-share -> db"],
    },
    {
        name: "xen: unknown on one side (db's need known after apply)",
        base: xenStack(),
        head: xenStack({ name: "db", edit: setTags(`perfguard:networkMBps=${UNKNOWN_VALUE}`) }),
        config: xenConfig,
        figures: [
            `${XCP01_UUID}: shortGuests 0 of 2 → 0 of 1 (changed)`,
            `${XCP01_UUID}: guest:db:predictedMBps 45 MB/s → (its perfguard:networkMBps or perfguard:vifCapMBps is unknown in this preview or invalid) (changed)`,
            `${XCP01_UUID}: guest:db:needMBps 45 MB/s → (none) (changed)`,
        ],
        // db and web are not checked (grouped on the stack): an unknown co-tenant need could lower their shares.
        verdicts: ["+ advisory xen-guest-network-share -> the stack"],
    },
];

describe("perfguard diff: a base and a head with one change, per system", () => {
    it.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
        const r = await diff(c.base, c.head, c.config);
        expect(changes(r)).toEqual(c.figures);
        expect(verdictChanges(r)).toEqual(c.verdicts);
    });

    it("nsx-alb: the row that stands for a VS's need names the VS, and the limit", async () => {
        const r = await diff(nsxStack(), nsxStack({ shop: { sslTps: "1050" }, api: { throughputGbps: "4" } }));
        const web = r.entities.find((e) => e.id === "web");
        expect(web?.figures.map((f) => f.label)).toEqual([
            "busiest SE (limited by CPU total (summed, not measured); the need of shop-vs)",
            "busiest SE throughput (the need of api-vs)",
        ]);
        // Their VS entities carry nothing of their own: not listed, not even as unchanged.
        expect(r.entities.filter((e) => e.kind === "virtualService").map((e) => e.id)).toEqual(["intranet-vs"]); // not checked on both sides: its group is not in the stack
    });

    it("the opposite direction swaps before and after, and appeared for disappeared", async () => {
        const r = await diff(citrixStack({ rttMs: "260" }), citrixStack());
        expect(verdictChanges(r)).toEqual([
            "- mandatory citrix-broker-throttle -> emea-zone",
            "- mandatory citrix-zone-rtt-limit -> emea-zone",
            "- advisory citrix-brokering-capacity -> emea-zone",
        ]);
        expect(changes(r)).toContain("zone:emea-zone: rttMs 260 ms → 160 ms (better)");
        expect(exitCodeOf(r, "new-mandatory")).toBe(0);
    });

    it("does not depend on the order of the resources", async () => {
        const head = citrixStack({ rttMs: "260", extra: [apacZone] });
        const a = await diff(citrixStack(), head);
        const b = await diff([...citrixStack()].reverse(), [...head].reverse());
        expect(changes(b)).toEqual(changes(a));
        expect(verdictChanges(b)).toEqual(verdictChanges(a));
    });
});

describe("exit code and summary", () => {
    it("--fail-on: new-mandatory fails on a new one only, any-mandatory on any, none never", async () => {
        const flipped = await diff(citrixStack(), citrixStack({ rttMs: "260" }));
        const still = await diff(citrixStack({ rttMs: "260" }), citrixStack({ rttMs: "270" }));
        expect([exitCodeOf(flipped, "new-mandatory"), exitCodeOf(flipped, "any-mandatory"), exitCodeOf(flipped, "none")]).toEqual([1, 1, 0]);
        expect([exitCodeOf(still, "new-mandatory"), exitCodeOf(still, "any-mandatory"), exitCodeOf(still, "none")]).toEqual([0, 1, 0]);
    });

    it("counts new mandatory verdicts and worse and better figures in one line", async () => {
        const r = await diff(citrixStack(), citrixStack({ rttMs: "260" }));
        expect(summaryLine(r)).toBe("2 new mandatory verdicts, 1 new advisory verdict; 7 figures worse, 0 better, 1 changed");
        expect(summaryLine(await diff(citrixStack(), citrixStack()))).toBe("no change in figures or verdicts");
    });
});

// A figure as the evaluations build it: a percentage's text from pct(), a time's from duration().
const percentFigure = (p: number): Figure => ({ key: "timedOutPct", label: "timed out", value: p, unit: "%", better: "lower", text: pct(p / 100) });
const secondsFigure = (v: number): Figure => ({ key: "meanResponseS", label: "mean response", value: v, unit: "s", better: "lower", text: duration(v) });

describe("one figure on both sides: what the diff prints, and whether it is a change", () => {
    it.each([
        // pct() rounds 0.00009% up to "0.0001%" but prints 0.00004% as "<0.0001%": both are below the floor.
        ["% both below the display floor", percentFigure(0.00009), percentFigure(0.00004), "<0.0001%", "<0.0001%", "unchanged"],
        ["% zero and below the floor", percentFigure(0), percentFigure(0.00004), "0%", "<0.0001%", "unchanged"],
        ["% the same text from different values", percentFigure(72.41), percentFigure(72.44), "72.4%", "72.4%", "unchanged"],
        ["% below the floor to a rate", percentFigure(0.00009), percentFigure(0.003), "<0.0001%", "0.003%", "worse"],
        // The floor side sets no precision: the rate prints as its verdict does (pct: "0.218%").
        ["% below the floor to a larger rate", percentFigure(0.00004), percentFigure(0.2183), "<0.0001%", "0.218%", "worse"],
        // pct() gives 10.01% one decimal ("10%"), 9.99% two: side by side both get two.
        ["% one precision for both sides", percentFigure(9.99), percentFigure(10.01), "9.99%", "10.01%", "worse"],
        ["% lower is better", percentFigure(58.5), percentFigure(31.6), "58.5%", "31.6%", "better"],
        ["s the same text from different values", secondsFigure(5.71), secondsFigure(5.74), "5.7 s", "5.7 s", "unchanged"],
        ["s a change keeps the evaluation's text", secondsFigure(5.4), secondsFigure(9.4), "5.4 s", "9.4 s", "worse"],
        ["s only on one side", undefined, secondsFigure(9.4), undefined, "9.4 s", "changed"],
    ] as const)("%s", (_name, before, after, beforeText, afterText, direction) => {
        const c = figureChange(before, after);
        expect([c.beforeText, c.afterText, c.direction]).toEqual([beforeText, afterText, direction]);
    });

    // Equal texts from values that differ: no change (not counted, the entity not "worse"), but the
    // move is printed finer and marked, never "36 min → 36 min" unexplained.
    it.each([
        [
            "a launch time that rounds to the same minute",
            secondsFigure(35.6 * 60),
            secondsFigure(36.4 * 60),
            "36 min",
            { before: "35.6 min", after: "36.4 min" },
        ],
        ["a mean response that rounds to the same tenth", secondsFigure(5.71), secondsFigure(5.74), "5.7 s", { before: "5.71 s", after: "5.74 s" }],
        ["a percentage that rounds to the same tenth", percentFigure(72.41), percentFigure(72.44), "72.4%", { before: "72.41%", after: "72.44%" }],
        ["the same value (baseline)", secondsFigure(2160), secondsFigure(2160), "36 min", undefined],
        ["float noise of the model's sums", secondsFigure(2160), secondsFigure(2160 * (1 + 1e-12)), "36 min", undefined],
        ["both below the percentage floor: no finer text exists", percentFigure(0.00009), percentFigure(0.00004), "<0.0001%", undefined],
    ] as const)("equal texts: %s", (_name, before, after, text, precise) => {
        const c = figureChange(before, after);
        expect([c.beforeText, c.afterText, c.direction, c.precise]).toEqual([text, text, "unchanged", precise]);
    });

    it("a move below the display precision: shown finer and marked, counted apart, not as a change", () => {
        const entity = (s: number) => ({ system: "citrix" as const, kind: "zoneLock", id: "emea", label: "lock of zone emea", figures: [secondsFigure(s)] });
        const r = diffStates({ figures: [entity(35.6 * 60)], verdicts: [] }, { figures: [entity(36.4 * 60)], verdicts: [] });
        expect(r.counts).toMatchObject({ worse: 0, better: 0, changed: 0, belowPrecision: 1, unchanged: 0 });
        expect(summaryLine(r)).toBe("1 figure moved below the display precision (not counted)");
        expect(renderText(report(r))).toContain("      mean response: 35.6 min → 36.4 min (+0.8 min, below the display precision: not counted)\n");
        expect(renderMarkdown(report(r))).toContain(
            "| lock of zone emea | mean response | 35.6 min | 36.4 min | +0.8 min (below the display precision: not counted) |",
        );
    });

    it("prints the pair in one format in the table, and counts no change for it", () => {
        const entity = (p: number) => ({ system: "citrix" as const, kind: "zoneLock", id: "emea", label: "lock of zone emea", figures: [percentFigure(p)] });
        const quiet = diffStates({ figures: [entity(0.00009)], verdicts: [] }, { figures: [entity(0.00004)], verdicts: [] });
        expect(quiet.counts).toMatchObject({ worse: 0, better: 0, changed: 0, unchanged: 1 });
        const md = renderMarkdown(report(diffStates({ figures: [entity(0.00009)], verdicts: [] }, { figures: [entity(0.218)], verdicts: [] })));
        expect(md).toContain("| lock of zone emea | timed out | <0.0001% | 0.218% | +0.22 pts 🔺 worse |");
        expect(md).not.toContain("| 0.0001% |");
    });
});

function report(r: DiffResult): DiffReport {
    const side = { file: "stack.json", kind: "stack export", resources: 1, unknownValues: 0 };
    return { base: side, head: side, result: r, exitCode: exitCodeOf(r, "new-mandatory"), failOn: "new-mandatory", plots: [] };
}

describe("rendering", () => {
    it("Markdown: a summary line, one table per system, the messages folded, unchanged entities on one line", async () => {
        const md = renderMarkdown(report(await diff([...citrixStack(), ...xenStack()], [...citrixStack({ rttMs: "260" }), ...xenStack()], xenConfig)));
        expect(md.split("\n")[1]).toBe("## perfguard diff: ❌ 2 new mandatory verdicts, 1 new advisory verdict; 7 figures worse, 0 better, 1 changed");
        expect(md).toContain("### Citrix\n");
        expect(md).toContain('| zone "emea-zone" (name "emea") | RTT | 160 ms | 260 ms | +100 ms 🔺 worse |');
        // The zone's own lock is its own entity, named apart from the zone; its launch change in minutes.
        expect(md).toMatch(/\| lock of zone "emea-zone" \(name "emea"\) \| launch time \| 8 min \| 13 min \| \+4\.\d min 🔺 worse \|/);
        expect(md).toContain("### Xen\n\n2 entities unchanged: Xen host");
        expect(md).toMatch(/<details><summary>Verdict messages \(3\)<\/summary>[\s\S]*citrix-zone-rtt-limit[\s\S]*<\/details>/);
    });

    it("Markdown stays under GitHub's comment limit, counting what it leaves out", async () => {
        // 3000 guests on one host, every one short after dom0 starts sending: thousands of rows and messages.
        const guests = (need: string) =>
            Array.from({ length: 3000 }, (_, i): TestResource => ({
                type: VM,
                name: `guest-${String(i).padStart(4, "0")}`,
                props: { affinityHost: "xcp-big", tags: [`perfguard:networkMBps=${need}`] },
            }));
        const config = {
            "xen-guest-network-share": { hosts: { "xcp-big": { linkMBps: 10000, dedicated: true } } },
            "xen-dom0-workload": { hosts: { "xcp-big": { linkMBps: 10000, dedicated: true } } },
        };
        const r = await diff(guests("1"), [...guests("4"), dom0Service("backup", "xcp-big", undefined, "6000")], config);
        const md = renderMarkdown(report(r));
        expect(md.length).toBeLessThanOrEqual(COMMENT_LIMIT);
        expect(md).toMatch(/… \d+ more rows not shown/);
        expect(md).toMatch(/… \d+ more messages not shown\./);
        expect(renderText(report(r))).toContain("guest guest-2999: predicted share (needs 4 MB/s): 1 MB/s → ");
    });

    it("escapes control characters and pipes in names", async () => {
        const zone = (name: string): TestResource => ({ type: ZONE, name: "odd-zone", props: { name, metadatas: [{ name: "perfguard:rttMs", value: "45" }] } });
        const md = renderMarkdown(report(await diff([zone("a|b\u001b[31m")], [zone("a|b\u001b[31m"), apacZone])));
        expect(md).not.toContain("\u001b");
        // The name input is shown escaped: the pipe as \|, the escape character as the text \u001b.
        expect(md).toContain('zone "odd-zone" (name "a\\|b\\u001b[31m")');
    });
});
