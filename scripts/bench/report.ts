/**
 * Renders the benchmark's results: a console table and BENCHMARKS.md (figures, floors, ratios,
 * targets, the machine, how to reproduce, and where AnalyzeStack's time goes).
 */
import type { MachineInfo } from "./machine";
import type { PackId, PolicyCounts } from "./packs";
import type { ProfileSummary } from "./profile";
import { FINDINGS } from "./findings";
import { fmtMb, fmtMs, fmtRatio, median, quantile } from "./stats";

/** One stack size's AnalyzeStack run. */
export interface StackRun {
    readonly size: number;
    readonly repeats: number;
    /** The encoded request's size in MB. */
    readonly requestMb: number;
    /** Wall time per call in ms, per pack. */
    readonly times: Record<PackId, number[]>;
    /** perfguard's violations on this stack, per policy. */
    readonly violations: Record<string, number>;
}

export interface BenchResults {
    readonly machine: MachineInfo;
    readonly loadAtEnd: number;
    readonly counts: PolicyCounts;
    /** Spawn to port line in ms, per start. */
    readonly startup: Record<PackId, number[]>;
    /** Analyze round trip in ms, per call. */
    readonly analyze: Record<PackId, number[]>;
    readonly analyzeViolations: number;
    readonly stacks: readonly StackRun[];
    /** Peak RSS (VmHWM) in MB of the long-lived process per pack. */
    readonly rss: Record<PackId, number>;
    readonly profile: { size: number; summary: ProfileSummary } | undefined;
    /** Resource types in a 1,000-resource stack. */
    readonly composition: Record<string, number>;
    readonly durationS: number;
    readonly quick: boolean;
}

interface Row {
    readonly measure: string;
    readonly perfguard: number;
    readonly noop: number;
    readonly empty: number;
    readonly format: (n: number) => string;
    /** Target ratios against the floors, when the issue sets one. */
    readonly target?: { noop?: number; empty?: number };
}

const PACKS = ["perfguard", "noop", "empty"] as const;

function rowsOf(r: BenchResults): Row[] {
    const med = (id: PackId, values: Record<PackId, number[]>): number => median(values[id]);
    const rows: Row[] = [
        {
            measure: `start-up, spawn to port line (ms, median of ${r.startup.perfguard.length})`,
            perfguard: med("perfguard", r.startup),
            noop: med("noop", r.startup),
            empty: med("empty", r.startup),
            format: fmtMs,
            target: { noop: 1.1, empty: 1.15 },
        },
        {
            measure: `Analyze per resource, median (ms, ${r.analyze.perfguard.length.toLocaleString("en-US")} calls)`,
            perfguard: med("perfguard", r.analyze),
            noop: med("noop", r.analyze),
            empty: med("empty", r.analyze),
            format: fmtMs,
        },
        {
            measure: "Analyze per resource, p99 (ms)",
            perfguard: quantile(r.analyze.perfguard, 0.99),
            noop: quantile(r.analyze.noop, 0.99),
            empty: quantile(r.analyze.empty, 0.99),
            format: fmtMs,
        },
    ];
    for (const s of r.stacks) {
        rows.push({
            measure: `AnalyzeStack, ${s.size.toLocaleString("en-US")} resources (ms, median of ${s.repeats})`,
            perfguard: median(s.times.perfguard),
            noop: median(s.times.noop),
            empty: median(s.times.empty),
            format: fmtMs,
            target: s.size >= 10000 ? { noop: 1.25 } : undefined,
        });
    }
    rows.push({
        measure: "peak RSS of the pack process (MB, VmHWM)",
        perfguard: r.rss.perfguard,
        noop: r.rss.noop,
        empty: r.rss.empty,
        format: fmtMb,
        target: { noop: 1.2 },
    });
    return rows;
}

function verdict(row: Row): string {
    if (!row.target) {
        return "(no target)";
    }
    const parts: string[] = [];
    if (row.target.noop !== undefined) {
        const ratio = row.perfguard / row.noop;
        parts.push(`<= ${row.target.noop.toFixed(2)}x no-op: ${ratio <= row.target.noop ? "met" : "MISSED"}`);
    }
    if (row.target.empty !== undefined) {
        const ratio = row.perfguard / row.empty;
        parts.push(`<= ${row.target.empty.toFixed(2)}x empty: ${ratio <= row.target.empty ? "met" : "MISSED"}`);
    }
    return parts.join("; ");
}

/** True when every target of every row is met. */
function missed(rows: readonly Row[]): Row[] {
    return rows.filter((row) => verdict(row).includes("MISSED"));
}

function machineLine(m: MachineInfo): string {
    return `${m.cpuModel}, ${m.cores} cores, ${m.memoryGiB.toFixed(1)} GiB, ${m.os}, Node ${m.node}`;
}

/** The console table (plain text, aligned). */
export function renderConsole(r: BenchResults): string {
    const rows = rowsOf(r);
    const header = ["measure", "perfguard", "no-op pack", "empty pack", "vs no-op", "vs empty", "target"];
    const lines = rows.map((row) => [
        row.measure,
        row.format(row.perfguard),
        row.format(row.noop),
        row.format(row.empty),
        fmtRatio(row.perfguard / row.noop),
        fmtRatio(row.perfguard / row.empty),
        verdict(row),
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
    const fmt = (cells: string[]) => cells.map((c, i) => (i === 0 || i === 6 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
    return [
        "",
        `perfguard bench: ${machineLine(r.machine)}; ${r.machine.date}; load ${r.machine.loadAverage.toFixed(2)} -> ${r.loadAtEnd.toFixed(2)}; ${r.durationS.toFixed(0)} s`,
        fmt(header),
        ...lines.map(fmt),
        "",
        r.quick ? "(--quick: smoke run, BENCHMARKS.md not written)\n" : "",
    ].join("\n");
}

function table(header: string[], rows: string[][]): string {
    return [
        `| ${header.join(" | ")} |`,
        `| ${header.map((_, i) => (i === 0 ? "---" : "---:")).join(" | ")} |`,
        ...rows.map((row) => `| ${row.join(" | ")} |`),
    ].join("\n");
}

function violationsText(v: Record<string, number>): string {
    const entries = Object.entries(v).sort((a, b) => a[0].localeCompare(b[0]));
    const total = entries.reduce((t, [, n]) => t + n, 0);
    return `${total.toLocaleString("en-US")} (${entries.map(([k, n]) => `${k} ${n.toLocaleString("en-US")}`).join(", ")})`;
}

/** BENCHMARKS.md. */
export function renderMarkdown(r: BenchResults, before?: { size: number; summary: ProfileSummary }, after?: { size: number; summary: ProfileSummary }): string {
    const rows = rowsOf(r);
    const misses = missed(rows);
    const out: string[] = [];
    out.push("# perfguard benchmarks", "");
    out.push(
        "Generated by `npm run bench` (scripts/bench.ts); do not edit by hand, re-run it. " +
            "Figures compare packs on one machine in one run; they are not portable across machines.",
        "",
    );
    out.push(
        `**Machine:** ${machineLine(r.machine)}. **Run:** ${r.machine.date}, ${r.durationS.toFixed(0)} s; ` +
            `1-minute load average ${r.machine.loadAverage.toFixed(2)} at the start, ${r.loadAtEnd.toFixed(2)} at the end ` +
            "(other work on the machine adds noise; interleaving spreads it over the three packs).",
        "",
    );
    out.push("## Results", "");
    out.push(
        `perfguard (${r.counts.resource} resource policies, ${r.counts.stack} stack policies) against two floors on the same ` +
            "@pulumi/policy and @pulumi/pulumi: the **no-op pack** (bench/floors/noop-pack: " +
            `${r.counts.resource} no-op resource and ${r.counts.stack} no-op stack policies, counted from perfguard's compiled registry) and the ` +
            "**empty pack** (bench/floors/empty-pack: no policies). Ratios are perfguard / floor.",
        "",
    );
    out.push(
        table(
            ["measure", "perfguard", "no-op pack", "empty pack", "perfguard / no-op", "perfguard / empty", "target"],
            rows.map((row) => [
                row.measure,
                row.format(row.perfguard),
                row.format(row.noop),
                row.format(row.empty),
                fmtRatio(row.perfguard / row.noop),
                fmtRatio(row.perfguard / row.empty),
                verdict(row),
            ]),
        ),
        "",
    );
    out.push(misses.length === 0 ? "**Every target is met.**" : `**Missed:** ${misses.map((m) => m.measure).join("; ")}. See "Where the time goes" below.`, "");

    out.push("### Spread", "");
    out.push(
        table(
            ["measure", ...PACKS.map((p) => `${p}: min / median / max`)],
            [
                ["start-up (ms)", ...PACKS.map((p) => spread(r.startup[p]))],
                ["Analyze (ms)", ...PACKS.map((p) => spread(r.analyze[p]))],
                ...r.stacks.map((s) => [`AnalyzeStack ${s.size.toLocaleString("en-US")} (ms)`, ...PACKS.map((p) => spread(s.times[p]))]),
            ],
        ),
        "",
    );

    out.push("## The stacks", "");
    out.push(
        "Generated by scripts/bench/stack.ts (deterministic), shaped as a real program's preview reaches AnalyzeStack: " +
            "per 100 resources a Citrix zone with facts in `metadatas` (the provider's name; not `metadata`), its hypervisor and " +
            "resource pool, three MCS machine catalogs joined to the zone through the `zone` property dependency, a delivery group " +
            "(its own peak in `metadatas`) and two Delivery Controllers (vSphere VMs: one with its facts in `extraConfig` " +
            "`guestinfo.perfguard.*`, one on `vsphere:index/tag:Tag` objects of a `perfguard` TagCategory, joined through the " +
            "property dependency of `tags`, whose ids are unknown); two NSX ALB SE groups (string fields) with eight virtual " +
            "services (demand `markers`; half joined through the `seGroupRef` property dependency, half by literal reference) and " +
            "four pools; twenty Xen Orchestra VMs (facts in `tags`, `affinityHost`) on two hosts and a dom0 service; and plain " +
            "resources with ordinary tags. Props are outputs as a preview has them: the computed ones (`id`, `uuid`, addresses, " +
            "...) are the engine's unknown sentinel; property dependencies are sent as the engine sends them (only properties " +
            "that have some, preview/packClient.ts); resources come in no particular order (the engine ranges over a map). Values " +
            "vary per block, so perfguard reports violations as on a real stack. perfguard runs with `--policy-pack-config` " +
            '`{"xen-guest-network-share": {"defaultLinkMBps": 111}}`, so the Xen share model runs on every host.',
        "",
    );
    out.push(
        table(
            ["resource type", "per 1,000 resources"],
            Object.entries(r.composition)
                .sort((a, b) => b[1] - a[1])
                .map(([type, n]) => [`\`${type}\``, String(n)]),
        ),
        "",
    );
    out.push(
        table(
            ["stack", "request size (MB)", "perfguard's AnalyzeStack violations"],
            r.stacks.map((s) => [s.size.toLocaleString("en-US"), s.requestMb.toFixed(1), violationsText(s.violations)]),
        ),
        "",
    );
    out.push(
        `Analyze: one call per resource of the ${r.analyze.perfguard.length.toLocaleString("en-US")}-resource stack (its inputs); ` +
            `perfguard returned ${r.analyzeViolations.toLocaleString("en-US")} violations over those calls.`,
        "",
    );

    out.push("## Method", "");
    out.push(
        [
            "- Every pack is started as the Pulumi CLI starts one (`node @pulumi/pulumi/cmd/run-policy-pack <engine> <pack dir>`, " +
                "cwd = the pack, preview env vars) by preview/packClient.ts, and configured in the CLI's order (Handshake, ConfigureStack, " +
                "GetAnalyzerInfo, Configure with a level for every policy).",
            `- **Start-up**: spawn to the port line on stdout, ${r.startup.perfguard.length} fresh processes per pack, interleaved ` +
                "(perfguard, no-op, empty, perfguard, ...), with one shared engine service so only the pack is timed.",
            "- **Analyze** and **AnalyzeStack**: one long-lived process per pack, calls interleaved (resource i goes to " +
                "perfguard, then the no-op pack, then the empty pack; AnalyzeStack repeat k starts with pack k mod 3, so no pack " +
                "always follows the same one). Requests are encoded to protobuf once, before timing " +
                "(`prepareAnalyze` / `prepareAnalyzeStack`): the CLI encodes in Go in milliseconds, while the JS encoder takes seconds " +
                "at 50,000 resources, which would be the same for every pack and dilute the ratios. Times are the gRPC round trip " +
                "(the pack's decode, its policies, the response). No warm-up call: the first repeat is in the medians, as a real " +
                "preview's single AnalyzeStack is cold.",
            "- **Peak RSS**: VmHWM from /proc/<pid>/status of each long-lived process at the end (after the largest stack).",
            "- A CPU profile of perfguard's pack process during one AnalyzeStack (below) is taken with the inspector's sampling " +
                "profiler (scripts/bench/cpuProfilePreload.ts, preloaded with `--require`: Node refuses `--cpu-prof` in NODE_OPTIONS), " +
                "on a fresh process after the timed runs.",
        ].join("\n"),
        "",
    );

    if (r.profile) {
        out.push(...profileSection(`after (this run, ${r.machine.date.slice(0, 10)})`, r.profile));
    }
    if (before) {
        out.push(...profileSection("before (main before issue 23's changes, same stack generator, scripts/bench/profileMain.ts, 2026-12-01)", before));
    }
    if (after) {
        out.push(
            ...profileSection(
                "after the first changes, same method as before (scripts/bench/profileMain.ts, 2026-12-01, before policies/pack/decodeOnce.ts)",
                after,
            ),
        );
    }
    out.push(FINDINGS, "");

    out.push("## Reproduce", "");
    out.push(
        [
            "```sh",
            "npm ci",
            "npm run bench            # builds, runs everything (20 minutes on 2 idle cores, an hour loaded), writes BENCHMARKS.md",
            "npm run bench -- --quick # a smoke run: fewer repeats, no 50,000 stack, one real preview round at 1,000; writes nothing",
            "npm run bench -- --no-real                      # the synthetic rows only (the saved real previews are kept)",
            "npm run bench -- --no-synthetic --real-sizes 10000 --real-rounds 1  # one size of real preview, on its own",
            "node dist/scripts/bench/profileMain.js --size 10000 --heap [--analyze]  # one profiled call (JSON on stdout)",
            "```",
            "",
            "Each part's figures are saved in bench/results/ (synthetic.json, real-preview.json, with their dates and load); " +
                "BENCHMARKS.md is rendered from the saved parts. profile-before.json and profile-after.json are 10,000-resource profiles (profileMain) of the code " +
                "before and after issue 23's changes (kept for the before/after comparison; not re-measured by the bench).",
            "",
            "Linux is needed for peak RSS (/proc). Close other work first: the figures are wall times on a shared machine.",
        ].join("\n"),
        "",
    );
    return out.join("\n");
}

/**
 * BENCHMARKS.md when the synthetic rows have no saved run yet (the run did not finish): the
 * profiles measured with profileMain before and after, and the findings. Says so at the top.
 */
export function renderPending(note: string, profiles: ReadonlyArray<{ title: string; profile: { size: number; summary: ProfileSummary } }>): string {
    const out: string[] = ["# perfguard benchmarks", "", "Generated by `npm run bench` (scripts/bench.ts); do not edit by hand, re-run it.", ""];
    out.push(`**The synthetic rows (start-up, Analyze, AnalyzeStack at 1,000 / 10,000 / 50,000, peak RSS) are not in this file:** ${note}`, "");
    for (const p of profiles) {
        out.push(...profileSection(p.title, p.profile));
    }
    out.push(FINDINGS, "");
    return out.join("\n");
}

function profileSection(title: string, profile: { size: number; summary: ProfileSummary }): string[] {
    const p = profile.summary;
    const out: string[] = [];
    out.push(`## Where the time goes: ${title}`, "");
    out.push(
        `One AnalyzeStack of ${profile.size.toLocaleString("en-US")} resources on a fresh perfguard process: ${fmtMs(p.callMs)} ms, ` +
            `${p.samples.toLocaleString("en-US")} samples (1 ms interval asked; fewer when the machine is loaded). Self time by owner:`,
        "",
    );
    out.push(
        table(
            ["owner", "share", "ms"],
            p.byOwner.map((e) => [e.name, `${(e.share * 100).toFixed(1)}%`, fmtMs(e.ms)]),
        ),
        "",
    );
    out.push("Top functions by self time:", "");
    out.push(
        table(
            ["function", "owner", "share", "ms"],
            p.topFunctions.map((e) => [`\`${e.name}\``, e.owner, `${(e.share * 100).toFixed(1)}%`, fmtMs(e.ms)]),
        ),
        "",
    );
    if (p.perfguardInclusive && p.perfguardInclusive.length > 0) {
        out.push(
            "perfguard's functions by inclusive time (the share of samples with the function on the stack; nested " +
                "functions overlap; garbage collection has no stack and is not in these):",
            "",
        );
        out.push(
            table(
                ["function", "share", "ms"],
                p.perfguardInclusive.slice(0, 20).map((e) => [`\`${e.name}\``, `${(e.share * 100).toFixed(1)}%`, fmtMs(e.ms)]),
            ),
            "",
        );
    }
    return out;
}

function spread(values: readonly number[]): string {
    if (values.length === 0) {
        return "n/a";
    }
    return `${fmtMs(Math.min(...values))} / ${fmtMs(median(values))} / ${fmtMs(Math.max(...values))}`;
}
