/**
 * The CPU seconds of the pack process a real `pulumi preview` starts, sampled from /proc while the
 * preview runs. This is perfguard's own share of a preview measured directly: perfguard's pack
 * process against the empty pack's is what perfguard adds (its policies, models and decode), and
 * CPU seconds hardly move with other work on the machine, where wall times move by tens of percent.
 *
 * The CLI kills the pack when the preview ends, so the last sample is what is kept: up to one
 * interval (200 ms) of CPU before the kill is not seen. Linux only (/proc); elsewhere undefined.
 */
import * as fs from "fs";
import * as path from "path";

/** The SDK's pack entry points, as the CLI's Node.js host starts a policy pack. */
const PACK_ENTRIES = ["run-plugin/index.js", "run-policy-pack/index.js"];
const INTERVAL_MS = 200;

/** The fields of /proc/<pid>/stat after "pid (comm) " (so field n of proc(5) is at n − 3); undefined when gone. */
function statFields(pid: string): string[] | undefined {
    try {
        return fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    } catch {
        return undefined;
    }
}

/** A process's CPU seconds: utime (field 14) + stime (15), in ticks of 1/100 s. */
export function cpuOf(pid: string): number | undefined {
    const fields = statFields(pid);
    return fields === undefined ? undefined : (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A process's start time (field 22, clock ticks since boot), "" when gone. */
function startTimeOf(pid: string): string {
    return statFields(pid)?.[19] ?? "";
}

/** True when a command line (NUL-separated) is a pack process serving `packDir`. */
export function isPackProcess(cmdline: string, packDir: string): boolean {
    const args = cmdline.split("\0");
    return args.some((a) => PACK_ENTRIES.some((entry) => a.endsWith(entry))) && args.some((a) => path.resolve(a) === packDir);
}

export interface PackCpuSampler {
    /** Stops sampling; the pack processes' CPU seconds (summed over each one seen), undefined if none was seen. */
    stop(): number | undefined;
}

/** The process ids in /proc (none where it cannot be read). */
function processIds(): string[] {
    try {
        return fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p));
    } catch {
        return [];
    }
}

/**
 * Starts sampling the CPU of every pack process serving `packDir` (an absolute path) that starts
 * after this call.
 */
export function startPackCpuSampler(packDir: string): PackCpuSampler {
    const dir = path.resolve(packDir);
    // pid -> whether it is a pack process of dir, and when first seen: a process seen between fork
    // and exec still has its parent's command line, so a "no" is read again for its first second.
    const seen = new Map<string, { pack: boolean; since: number }>();
    // Processes alive before this preview began are not its pack: an orphan of an interrupted
    // run (a killed bench leaves its pack process behind) would add its CPU to every run.
    // Keyed by pid and start time, so that a new process that reuses such a pid is still seen.
    const before = new Set(processIds().map((pid) => `${pid}@${startTimeOf(pid)}`));
    const cpu = new Map<string, number>();
    const sample = (): void => {
        for (const pid of processIds()) {
            const now = Date.now();
            let known = seen.get(pid);
            if (!known && before.has(`${pid}@${startTimeOf(pid)}`)) {
                // Alive before the preview: never its pack, and never read again.
                known = { pack: false, since: -Infinity };
                seen.set(pid, known);
            }
            if (!known || (!known.pack && now - known.since < 1000)) {
                let cmdline: string;
                try {
                    cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
                } catch {
                    continue;
                }
                seen.set(pid, { pack: isPackProcess(cmdline, dir), since: known?.since ?? now });
            }
            if (seen.get(pid)?.pack) {
                const seconds = cpuOf(pid);
                if (seconds !== undefined) {
                    cpu.set(pid, Math.max(seconds, cpu.get(pid) ?? 0));
                }
            }
        }
    };
    const timer = setInterval(sample, INTERVAL_MS);
    return {
        stop(): number | undefined {
            clearInterval(timer);
            sample();
            return cpu.size === 0 ? undefined : [...cpu.values()].reduce((a, b) => a + b, 0);
        },
    };
}
