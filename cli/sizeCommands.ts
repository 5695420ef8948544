/**
 * `perfguard size citrix|nsx-alb|xen`: the models outside a stack, from figures given on the
 * command line (registered on the program by cli/main.ts).
 */
import * as fs from "fs";
import { Command, Option } from "commander";
import { DEFAULT_MAX_VS_PER_SE } from "../model/seCapacity";
import type { HaMode, VsDemand } from "../model/seCapacity";
import { SE_CAPACITY_DEFAULTS } from "../policies/nsx-alb/config";
import { xenDefaults } from "../policies/xen/settings";
import { checkWritable, Io, JSON_HELP, printSizing } from "./commandIo";
import { UsageError } from "./errors";
import { numberIn, oneOf } from "./numbers";

/** CLI spelling of each HA mode. */
const HA_MODE_FLAGS: Record<string, HaMode> = {
    shared: "HA_MODE_SHARED",
    "shared-pair": "HA_MODE_SHARED_PAIR",
    "active-standby": "HA_MODE_LEGACY_ACTIVE_STANDBY",
};

const VS_KEYS: Record<string, { max: number; integer?: boolean }> = {
    sslTps: { max: 1e9 },
    l7Rps: { max: 1e10 },
    l4Cps: { max: 1e10 },
    l4OpenConnections: { max: 1e11, integer: true },
    throughputGbps: { max: 100000 },
};

/** One VS demand from an object of a --vs spec or a --vs-file entry; a UsageError names what is wrong. */
function vsDemandOf(raw: Record<string, unknown>, where: string): VsDemand {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(raw)) {
        if (key === "sslKeyType") {
            if (value !== "rsa" && value !== "ecc") {
                throw new UsageError(`${where}: sslKeyType must be rsa or ecc, got ${JSON.stringify(value)}`);
            }
            out.sslKeyType = value;
        } else if (key === "ssl" || key === "scaleoutEcmp") {
            if (value !== true && value !== false && value !== "true" && value !== "false") {
                throw new UsageError(`${where}: ${key} must be true or false, got ${JSON.stringify(value)}`);
            }
            out[key] = value === true || value === "true";
        } else if (key === "ingressPct") {
            const n = typeof value === "number" ? value : typeof value === "string" && /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN;
            if (!Number.isFinite(n) || n < 0 || n > 100) {
                throw new UsageError(`${where}: ingressPct must be a number from 0 to 100, got ${JSON.stringify(value)}`);
            }
            out.ingressPct = n;
        } else if (key in VS_KEYS) {
            const n = typeof value === "number" ? value : typeof value === "string" && /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN;
            const range = VS_KEYS[key];
            if (!Number.isFinite(n) || n < 0 || n > range.max || (range.integer && !Number.isInteger(n))) {
                throw new UsageError(
                    `${where}: ${key} must be ${range.integer ? "a whole number" : "a number"} from 0 to ${range.max}, got ${JSON.stringify(value)}`,
                );
            }
            out[key] = n;
        } else {
            throw new UsageError(
                `${where}: unknown key ${JSON.stringify(key)} (known: ${[...Object.keys(VS_KEYS), "sslKeyType", "ssl", "ingressPct", "scaleoutEcmp"].join(", ")})`,
            );
        }
    }
    if (!Object.keys(VS_KEYS).some((k) => k in out)) {
        throw new UsageError(`${where}: give at least one demand (${Object.keys(VS_KEYS).join(", ")})`);
    }
    if (out.sslTps !== undefined && out.sslKeyType === undefined) {
        out.sslKeyType = "rsa";
    }
    return out;
}

/** commander collector of repeated --vs specs ("k=v,k=v"). */
function collectVs(spec: string, previous: VsDemand[]): VsDemand[] {
    const raw: Record<string, string> = {};
    for (const pair of spec
        .split(",")
        .map((p) => p.trim())
        .filter((p) => p !== "")) {
        const eq = pair.indexOf("=");
        if (eq <= 0) {
            throw new UsageError(`--vs ${JSON.stringify(spec)}: expected key=value pairs separated by commas`);
        }
        raw[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
    }
    return [...previous, vsDemandOf(raw, `--vs ${JSON.stringify(spec)}`)];
}

function readVsFile(file: string): VsDemand[] {
    let parsed: unknown;
    try {
        parsed = JSON.parse(fs.readFileSync(file, "utf8"));
    } catch (e) {
        throw new UsageError(`--vs-file ${file}: ${e instanceof Error ? e.message : "cannot be read"}`);
    }
    if (!Array.isArray(parsed)) {
        throw new UsageError(`--vs-file ${file}: expected a JSON array of virtual service demands`);
    }
    return parsed.map((entry, i) => {
        if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
            throw new UsageError(`--vs-file ${file}: entry ${i} is not an object`);
        }
        return vsDemandOf(entry as Record<string, unknown>, `--vs-file ${file} entry ${i}`);
    });
}

/** Registers `size` and its three systems' subcommands on `program`. */
export function addSizeCommands(program: Command, io: Io): void {
    const size = program.command("size").description("predict performance from figures you give on the command line (no stack needed)");

    size.command("citrix")
        .description(
            "Citrix launch brokering at one RTT: predicted mean response, brokered/s, timed-out requests and launch time per concurrency, the largest safe concurrency and the throttle per Delivery Controller",
        )
        .requiredOption("--rtt-ms <ms>", "RTT between the zone's Delivery Controllers and the Site database, ms", numberIn({ min: 0, max: 10000, unit: "ms" }))
        .option("--users <n>", "users launched in the logon storm", numberIn({ min: 0, max: 10000000, integer: true, unit: "users" }), 10000)
        .option("--controllers <n>", "Delivery Controllers in the zone", numberIn({ min: 1, max: 1000, integer: true, unit: "controllers" }), 2)
        .option(
            "--delivery-groups <n>",
            "Delivery Groups with machines in the zone (each is its own brokering lock)",
            numberIn({ min: 1, max: 1000, integer: true, unit: "groups" }),
            1,
        )
        .option("--group-machines <list>", "machines of each Delivery Group, comma-separated (the zone's load splits in proportion; default equal)")
        .option("--group-peaks <list>", "each Delivery Group's own peak of concurrent launches, comma-separated (bounds what its lock can receive)")
        .option("--target-response-s <s>", "highest acceptable mean brokering response, s", numberIn({ min: 0, above: true, max: 600, unit: "s" }), 12)
        .option("--error-budget-pct <pct>", "highest acceptable share of timed-out requests, percent", numberIn({ min: 0, max: 100, unit: "percent" }), 0.1)
        .option("--from <n>", "first concurrency of the table, requests", numberIn({ min: 1, max: 1000, integer: true, unit: "requests" }), 12)
        .option("--to <n>", "last concurrency of the table, requests", numberIn({ min: 1, max: 1000, integer: true, unit: "requests" }), 60)
        .option("--step <n>", "concurrency step of the table, requests", numberIn({ min: 1, max: 1000, integer: true, unit: "requests" }), 6)
        .option(
            "--plot <file.svg>",
            "also draw mean response and timed-out requests against concurrency (measured cells overlaid when the source measured this RTT)",
        )
        .option("--json", JSON_HELP)
        .action(
            async (o: {
                rttMs: number;
                users: number;
                controllers: number;
                deliveryGroups: number;
                groupMachines?: string;
                groupPeaks?: string;
                targetResponseS: number;
                errorBudgetPct: number;
                from: number;
                to: number;
                step: number;
                plot?: string;
                json?: boolean;
            }) => {
                if (o.to < o.from) {
                    throw new UsageError(`--to ${o.to} is below --from ${o.from}`);
                }
                const groupMachines = o.groupMachines?.split(",").map((v) => Number(v.trim()));
                if (groupMachines && (groupMachines.length !== o.deliveryGroups || groupMachines.some((m) => !Number.isInteger(m) || m < 0 || m > 10000000))) {
                    throw new UsageError(
                        `--group-machines needs ${o.deliveryGroups} whole numbers from 0 to 10000000 separated by commas (one per --delivery-groups), got "${o.groupMachines}"`,
                    );
                }
                const groupPeaks = o.groupPeaks?.split(",").map((v) => Number(v.trim()));
                if (groupPeaks && (groupPeaks.length !== o.deliveryGroups || groupPeaks.some((m) => !Number.isInteger(m) || m < 1 || m > 1000000))) {
                    throw new UsageError(
                        `--group-peaks needs ${o.deliveryGroups} whole numbers from 1 to 1000000 separated by commas (one per --delivery-groups), got "${o.groupPeaks}"`,
                    );
                }
                if (o.plot !== undefined) {
                    checkWritable(o.plot, "plot");
                }
                const { sizeCitrix, citrixPlotSvg } = await import("./sizeCitrix");
                const { formatCitrixSizing, citrixSizingJson } = await import("./sizeCitrixText");
                const sizing = sizeCitrix({
                    rttMs: o.rttMs,
                    users: o.users,
                    controllers: o.controllers,
                    targetResponseS: o.targetResponseS,
                    errorBudgetPct: o.errorBudgetPct,
                    from: o.from,
                    to: o.to,
                    step: o.step,
                    deliveryGroups: o.deliveryGroups,
                    groupMachines,
                    groupPeaks,
                });
                await printSizing(io, o, {
                    plot: () => citrixPlotSvg(sizing),
                    json: () => citrixSizingJson(sizing, o.plot),
                    text: () => formatCitrixSizing(sizing),
                });
            },
        );

    const haModes = Object.keys(HA_MODE_FLAGS);
    size.command("nsx-alb")
        .description(
            "NSX ALB Service Engines for one virtual service: the smallest vcpusPerSe (with memory and disk) that carries its peak demand with headroom, and the utilisation per metric",
        )
        .option("--ssl-tps <tps>", "new SSL/TLS handshakes per second at peak, TPS", numberIn({ min: 0, max: 1e9, unit: "TPS" }))
        .addOption(new Option("--ssl-key <type>", "certificate key type of the SSL TPS figure").choices(["rsa", "ecc"]).default("rsa"))
        .option("--l7-rps <rps>", "HTTP requests per second at peak, RPS", numberIn({ min: 0, max: 1e10, unit: "RPS" }))
        .option("--l4-cps <cps>", "new TCP connections per second at peak, CPS", numberIn({ min: 0, max: 1e10, unit: "CPS" }))
        .option("--open-connections <n>", "concurrent open connections at peak", numberIn({ min: 0, max: 1e11, integer: true, unit: "connections" }))
        .option("--throughput-gbps <gbps>", "client-side throughput at peak, Gbps", numberIn({ min: 0, max: 100000, unit: "Gbps" }))
        .option("--ssl", "the VS terminates SSL (implied by --ssl-tps); picks the L7 SSL throughput row")
        .option(
            "--ingress-pct <pct>",
            "percent of --throughput-gbps that is ingress (client to VS); default all of it (native scale-out: the primary SE takes every ingress packet)",
            numberIn({ min: 0, max: 100, unit: "percent" }),
        )
        .option("--scaleout-ecmp", "the VS sets scaleoutEcmp true (BGP/ECMP scale-out: the upstream router spreads ingress over the SEs)")
        .option(
            "--scale-out <n>",
            "SEs the VS is placed on (minScaleoutPerVs; --ha-mode shared only)",
            numberIn({ min: 1, max: 64, integer: true, unit: "SEs" }),
            1,
        )
        .option("--buffer-se <n>", "spare SEs kept for N+M failover (bufferSe)", numberIn({ min: 0, max: 64, integer: true, unit: "SEs" }), 1)
        .option("--ha-mode <mode>", `SE group HA mode: ${haModes.join(", ")}`, oneOf(haModes), "shared")
        .option(
            "--max-vs-per-se <n>",
            "most VSs on one SE (maxVsPerSe; packed placement fills an SE up to it)",
            numberIn({ min: 1, max: 1000, integer: true, unit: "VSs" }),
            DEFAULT_MAX_VS_PER_SE,
        )
        .option("--vcpus <n>", "check this vcpusPerSe instead of searching for the smallest", numberIn({ min: 1, max: 64, integer: true, unit: "vCPUs" }))
        .option(
            "--vs <spec>",
            "a further VS on the same group, repeatable: key=value pairs, e.g. sslTps=1000,sslKeyType=rsa,l7Rps=20000,throughputGbps=1,ssl=true",
            collectVs,
            [],
        )
        .option(
            "--vs-file <file.json>",
            "further VSs on the same group: a JSON array of { sslTps, sslKeyType, l7Rps, l4Cps, l4OpenConnections, throughputGbps, ssl }",
        )
        .option(
            "--headroom-pct <pct>",
            "spare capacity to keep, percent (nsx-alb-se-capacity's headroomPct)",
            numberIn({ min: 0, max: 95, unit: "percent" }),
            SE_CAPACITY_DEFAULTS.headroomPct,
        )
        .option("--plot <file.svg>", "also draw demand against capacity per metric")
        .option("--json", JSON_HELP)
        .action(
            async (o: {
                sslTps?: number;
                sslKey: "rsa" | "ecc";
                l7Rps?: number;
                l4Cps?: number;
                openConnections?: number;
                throughputGbps?: number;
                ssl?: boolean;
                ingressPct?: number;
                scaleoutEcmp?: boolean;
                scaleOut: number;
                bufferSe: number;
                haMode: string;
                maxVsPerSe: number;
                vcpus?: number;
                vs: VsDemand[];
                vsFile?: string;
                headroomPct: number;
                plot?: string;
                json?: boolean;
            }) => {
                const demand = {
                    ...(o.sslTps !== undefined ? { sslTps: o.sslTps, sslKeyType: o.sslKey } : {}),
                    ...(o.l7Rps !== undefined ? { l7Rps: o.l7Rps } : {}),
                    ...(o.l4Cps !== undefined ? { l4Cps: o.l4Cps } : {}),
                    ...(o.openConnections !== undefined ? { l4OpenConnections: o.openConnections } : {}),
                    ...(o.throughputGbps !== undefined ? { throughputGbps: o.throughputGbps } : {}),
                    ...(o.ssl ? { ssl: true } : {}),
                    ...(o.ingressPct !== undefined ? { ingressPct: o.ingressPct } : {}),
                    ...(o.scaleoutEcmp ? { scaleoutEcmp: true } : {}),
                };
                if (
                    o.sslTps === undefined &&
                    o.l7Rps === undefined &&
                    o.l4Cps === undefined &&
                    o.openConnections === undefined &&
                    o.throughputGbps === undefined
                ) {
                    throw new UsageError("give at least one demand: --ssl-tps, --l7-rps, --l4-cps, --open-connections or --throughput-gbps");
                }
                const haMode = HA_MODE_FLAGS[o.haMode];
                if (haMode === "HA_MODE_LEGACY_ACTIVE_STANDBY" && o.scaleOut !== 1) {
                    throw new UsageError(`--scale-out does not apply to --ha-mode ${o.haMode}: legacy active/standby has no scale-out`);
                }
                const more = [...o.vs, ...(o.vsFile !== undefined ? readVsFile(o.vsFile) : [])];
                if (o.plot !== undefined) {
                    checkWritable(o.plot, "plot");
                }
                const { sizeNsxAlb } = await import("./sizeNsxAlb");
                const { formatNsxAlbSizing, nsxAlbSizingJson, nsxAlbPlotSvg } = await import("./sizeNsxAlbText");
                const sizing = sizeNsxAlb({
                    demand,
                    more,
                    scaleOut: o.scaleOut,
                    bufferSe: o.bufferSe,
                    haMode,
                    maxVsPerSe: o.maxVsPerSe,
                    vcpus: o.vcpus,
                    headroomPct: o.headroomPct,
                });
                await printSizing(io, o, {
                    plot: () => nsxAlbPlotSvg(sizing),
                    json: () => nsxAlbSizingJson(sizing, o.plot),
                    text: () => formatNsxAlbSizing(sizing),
                });
            },
        );

    size.command("xen")
        .description(
            "Xen host network: each guest's predicted share of the host's link as measured (receive / download), with dom0's traffic (MB/s = megabytes per second of usable throughput)",
        )
        .requiredOption(
            "--link-mb-per-s <MBps>",
            "usable throughput of the host's link, MB/s (1 Gb/s carries about 111 MB/s)",
            numberIn({ min: 0, above: true, max: 1e6, unit: "MB/s" }),
        )
        .requiredOption("--guests <n>", "guests (domUs) on the host", numberIn({ min: 1, max: 10000, integer: true, unit: "guests" }))
        .option("--dom0-mb-per-s <MBps>", "what dom0 receives (the measured direction), MB/s (absent: dom0 idle)", numberIn({ min: 0, max: 1e6, unit: "MB/s" }))
        .option(
            "--guest-mb-per-s <MBps>",
            "what each guest needs, MB/s (absent: each receives as much as it can)",
            numberIn({ min: 0, max: 1e6, unit: "MB/s" }),
        )
        .option(
            "--dom0-share <fraction>",
            "dom0's guaranteed fraction of the link while it transfers",
            numberIn({ min: 0, max: 1, unit: "fraction" }),
            xenDefaults.dom0Share,
        )
        .option(
            "--bond-members <n>",
            "the link is a bond of n members and --link-mb-per-s is their aggregate (hosts.<host>.bond.members)",
            numberIn({ min: 2, max: 64, integer: true, unit: "members" }),
        )
        .option("--bond-mode <mode>", "balance-slb (the default: one member per VIF), active-backup (one member) or lacp (one member per flow)")
        .option("--guest-vifs <n>", "each guest's VIFs on the bond (default 1)", numberIn({ min: 1, max: 64, integer: true, unit: "VIFs" }))
        .option("--plot <file.svg>", "also draw each receiver's predicted share of the link (the first 40)")
        .option("--json", JSON_HELP)
        .action(
            async (o: {
                linkMbPerS: number;
                guests: number;
                dom0MbPerS?: number;
                guestMbPerS?: number;
                dom0Share: number;
                bondMembers?: number;
                bondMode?: string;
                guestVifs?: number;
                plot?: string;
                json?: boolean;
            }) => {
                if (o.plot !== undefined) {
                    checkWritable(o.plot, "plot");
                }
                const { sizeXen, formatXenSizing, xenSizingJson, xenPlotSvg, xenBondOf } = await import("./sizeXen");
                const bond = xenBondOf(o.bondMembers, o.bondMode, o.guestVifs);
                const sizing = sizeXen({
                    linkMBps: o.linkMbPerS,
                    guests: o.guests,
                    dom0MBps: o.dom0MbPerS,
                    guestMBps: o.guestMbPerS,
                    dom0Share: o.dom0Share,
                    ...bond,
                });
                await printSizing(io, o, { plot: () => xenPlotSvg(sizing), json: () => xenSizingJson(sizing, o.plot), text: () => formatXenSizing(sizing) });
            },
        );
}
