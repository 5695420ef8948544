/** What the benchmark ran on, for the report (figures only compare within one machine). */
import * as fs from "fs";
import * as os from "os";

export interface MachineInfo {
    readonly cpuModel: string;
    readonly cores: number;
    /** Total memory in GiB. */
    readonly memoryGiB: number;
    readonly os: string;
    readonly node: string;
    /** ISO date and time the run started. */
    readonly date: string;
    /** 1-minute load average at the start (other work on the machine adds noise). */
    readonly loadAverage: number;
}

function cpuModel(): string {
    const fromOs = os.cpus()[0]?.model?.trim();
    if (fromOs) {
        return fromOs;
    }
    try {
        const line = fs
            .readFileSync("/proc/cpuinfo", "utf8")
            .split("\n")
            .find((l) => l.startsWith("model name"));
        return line ? line.split(":")[1].trim() : "unknown";
    } catch {
        return "unknown";
    }
}

/** Reads the machine's CPU, cores, memory, OS, Node version, date and load. */
export function machineInfo(): MachineInfo {
    return {
        cpuModel: cpuModel(),
        cores: os.cpus().length,
        memoryGiB: os.totalmem() / 1024 ** 3,
        os: `${os.type()} ${os.release()} ${os.arch()}`,
        node: process.version,
        date: new Date().toISOString(),
        loadAverage: os.loadavg()[0],
    };
}

/** The 1-minute load average now. */
export function loadNow(): number {
    return os.loadavg()[0];
}

/** CPU seconds of this process's waited-for children and their descendants (/proc/self/stat cutime + cstime). */
export function childCpuSeconds(): number | undefined {
    try {
        const fields = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
        // After "pid (comm) ": state is field 3, so cutime (16) and cstime (17) are at 13 and 14; clock ticks of 1/100 s.
        return (Number(fields[13]) + Number(fields[14])) / 100;
    } catch {
        return undefined;
    }
}
