/**
 * The system registry: every system the CLI reads figures of, in output order. `check --report`,
 * `diff` (figures, ordering, headings, the site-share marking) and `diff --plot` loop over it;
 * nothing else in cli/ names a system. A new system is its room (policies/<system>/, with its
 * system.ts), its CLI file (cli/systems/<system>.ts) and one line here (docs/architecture.md).
 */
import { citrix } from "./citrix";
import { nsxAlb } from "./nsxAlb";
import type { CliSystem } from "./types";
import { xen } from "./xen";

export const SYSTEMS: readonly CliSystem[] = [citrix, nsxAlb, xen].sort((a, b) => a.order - b.order);

/** The registered system with this id, if any. */
export function systemOf(id: string): CliSystem | undefined {
    return SYSTEMS.find((s) => s.id === id);
}
