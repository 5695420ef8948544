/**
 * Every process a test starts, found and ended whatever happened to its parent.
 *
 * Each test run, test file and tracked command gets a marker in the environment variable
 * PERFGUARD_TEST_OWNER (`<run>:<worker pid>[:<command>]`). Processes inherit it: the preview
 * path's pack and program, the Pulumi CLI, its language host, provider plugins and the packs it
 * starts all spread `process.env`. A process keeps its environment when its parent dies and it is
 * re-parented, so /proc/<pid>/environ finds orphans too (a `run-policy-pack` left by a test that
 * timed out). Linux only: elsewhere nothing is found and nothing is killed.
 */
import { spawn, SpawnOptions } from "child_process";
import * as fs from "fs";

/** The environment variable that marks a test's processes. */
export const OWNER_ENV = "PERFGUARD_TEST_OWNER";

/** The marker of this process's own children (set by test/support/processCleanup.ts per test file). */
export function ownMarker(): string | undefined {
    return process.env[OWNER_ENV];
}

/** A live process and the marker it carries. */
export interface MarkedProcess {
    readonly pid: number;
    readonly marker: string;
    /** Its command line, for messages (`node .../run-policy-pack ...`). */
    readonly command: string;
}

function readMarker(pid: number): string | undefined {
    try {
        const environ = fs.readFileSync(`/proc/${pid}/environ`, "utf8");
        const entry = environ.split("\0").find((e) => e.startsWith(`${OWNER_ENV}=`));
        return entry?.slice(OWNER_ENV.length + 1);
    } catch {
        return undefined; // gone, or not ours to read
    }
}

/** Whether /proc/<pid>/stat says zombie (the state is the first field after the command). */
function statOf(pid: number): { zombie: boolean } | undefined {
    try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
        return { zombie: stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z") };
    } catch {
        return undefined;
    }
}

/**
 * Live processes whose marker is `prefix` or starts with `prefix:`; never this process.
 * Zombies (exited, not yet reaped) are not counted: they hold no resources and cannot be killed.
 */
export function markedProcesses(prefix: string): MarkedProcess[] {
    let entries: string[];
    try {
        entries = fs.readdirSync("/proc");
    } catch {
        return [];
    }
    const out: MarkedProcess[] = [];
    for (const entry of entries) {
        if (!/^\d+$/.test(entry)) {
            continue;
        }
        const pid = Number(entry);
        if (pid === process.pid) {
            continue;
        }
        const marker = readMarker(pid);
        if (marker === undefined || (marker !== prefix && !marker.startsWith(`${prefix}:`))) {
            continue;
        }
        const stat = statOf(pid);
        if (!stat || stat.zombie) {
            continue;
        }
        let command: string;
        try {
            command = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
        } catch {
            continue;
        }
        out.push({ pid, marker, command });
    }
    return out;
}

/** Sends SIGKILL to every process `markedProcesses(prefix)` finds (except `keep`); returns them. */
export function killMarked(prefix: string, keep: ReadonlySet<number> = new Set()): MarkedProcess[] {
    const found = markedProcesses(prefix).filter((p) => !keep.has(p.pid));
    for (const p of found) {
        try {
            process.kill(p.pid, "SIGKILL");
        } catch {
            // already gone
        }
    }
    return found;
}

/**
 * Polls until no process carries `prefix`, killing what is left each round, for at most
 * `deadlineMs` (a bound for a loaded machine, not a speed claim). Output: what was still alive at
 * the end ([] when all are gone).
 */
export async function endMarked(prefix: string, deadlineMs = 30_000): Promise<MarkedProcess[]> {
    const until = Date.now() + deadlineMs;
    for (;;) {
        const left = killMarked(prefix);
        if (left.length === 0) {
            return [];
        }
        if (Date.now() > until) {
            return markedProcesses(prefix);
        }
        await new Promise((r) => setTimeout(r, 200));
    }
}

let commandCount = 0;

/** What a tracked command printed and how it ended. */
export interface TrackedRun {
    readonly code: number | null;
    readonly signal: NodeJS.Signals | null;
    readonly stdout: string;
    readonly stderr: string;
    /** True when it was ended by `timeoutMs` (or `stop`). */
    readonly stopped: boolean;
}

/** A started command: its marker, a way to end it and every process it started, and its result. */
export interface TrackedCommand {
    readonly marker: string;
    readonly pid: number;
    /** Ends the command's process group and every process carrying its marker. */
    stop(): Promise<void>;
    readonly done: Promise<TrackedRun>;
}

export interface TrackOptions extends Pick<SpawnOptions, "cwd"> {
    env?: NodeJS.ProcessEnv;
    /** Ends the command (and what it started) after this long; default: never. */
    timeoutMs?: number;
}

/**
 * Starts `command` in its own process group with a marker of its own (under this file's marker),
 * and, however it ends (exit, `timeoutMs`, `stop()`), ends whatever it started and left behind.
 */
export function startTracked(command: string, args: readonly string[], opts: TrackOptions = {}): TrackedCommand {
    commandCount += 1;
    const marker = `${ownMarker() ?? `perfguard-test:${process.pid}`}:c${commandCount}`;
    const child = spawn(command, [...args], {
        cwd: opts.cwd,
        env: { ...(opts.env ?? process.env), [OWNER_ENV]: marker },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true, // its own process group: one kill ends the command and its children
    });
    let stdout = "";
    let stderr = "";
    let stopped = false;
    child.stdout?.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    const killGroup = () => {
        try {
            if (child.pid !== undefined) {
                process.kill(-child.pid, "SIGKILL");
            }
        } catch {
            // the group is gone
        }
    };
    const stop = async (): Promise<void> => {
        stopped = true;
        killGroup();
        await endMarked(marker);
    };
    const timer = opts.timeoutMs === undefined ? undefined : setTimeout(() => void stop(), opts.timeoutMs);
    const done = new Promise<TrackedRun>((resolve, reject) => {
        child.on("error", reject);
        child.on("close", (code, signal) => {
            if (timer) {
                clearTimeout(timer);
            }
            // Whatever it left running (a plugin, a pack) ends with it.
            void endMarked(marker).then(() => resolve({ code, signal, stdout, stderr, stopped }));
        });
    });
    return { marker, pid: child.pid ?? -1, stop, done };
}
