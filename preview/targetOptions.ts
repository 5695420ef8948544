/**
 * The `pulumi preview` options that narrow or force the update: `--target` (`-t`),
 * `--target-dependents`, `--exclude`, `--exclude-dependents` and `--replace`. The CLI accepts them,
 * so the emulation never refuses them (exit 2, "Unknown option"); it does not reproduce them
 * either: what the engine sends the pack then depends on the stack's state (a targeted update
 * leaves the other resources as the state has them, a replaced one is previewed as a fresh
 * create), which the emulation does not read for this. Each one given is named in a "not
 * reproduced" line and the preview exits 1 (the CLI might block); the program is still previewed
 * whole, so its verdicts are shown. `npm run preview:real` passes them to the CLI.
 */

/** parseArgs definitions, spread into the preview's own (kept here to leave main.ts's list short). */
export const TARGET_OPTIONS = {
    target: { type: "string", multiple: true, short: "t" },
    "target-dependents": { type: "boolean" },
    exclude: { type: "string", multiple: true },
    "exclude-dependents": { type: "boolean" },
    replace: { type: "string", multiple: true },
} as const;

/** The values parseArgs gives for TARGET_OPTIONS. */
export interface TargetValues {
    target?: string[];
    "target-dependents"?: boolean;
    exclude?: string[];
    "exclude-dependents"?: boolean;
    replace?: string[];
}

/** One "not reproduced" feature per option given, in the order of TARGET_OPTIONS (URNs sorted). */
export function targetOptionsNotReproduced(values: TargetValues): string[] {
    const urns = (list: string[] | undefined) => [...new Set(list ?? [])].sort().join(", ");
    const out: string[] = [];
    if ((values.target ?? []).length > 0) {
        out.push(
            `--target ${urns(values.target)} (a targeted update sends the pack the other resources as the stack's state has them; the emulation previews the whole program)`,
        );
    }
    if (values["target-dependents"]) {
        out.push("--target-dependents (the emulation previews the whole program)");
    }
    if ((values.exclude ?? []).length > 0) {
        out.push(`--exclude ${urns(values.exclude)} (the excluded resources stay as the stack's state has them; the emulation previews the whole program)`);
    }
    if (values["exclude-dependents"]) {
        out.push("--exclude-dependents (the emulation previews the whole program)");
    }
    if ((values.replace ?? []).length > 0) {
        out.push(`--replace ${urns(values.replace)} (the engine previews a replaced resource as a fresh create against the stack's state)`);
    }
    return out;
}
