/**
 * The never-throw wrapper: an unexpected error while judging one resource becomes a violation
 * about that resource (naming the error class, never property values), so one odd resource never
 * crashes the preview or loses the verdicts on the others.
 */
import type { Report } from "./decisions";
import { shortLabel, shortName } from "./message";
import type { ResourceView } from "./resources";

/**
 * Runs `fn` for one resource; an unexpected error becomes a violation about that resource
 * (naming the error class, never property values) instead of failing every verdict.
 */
export function isolate(resource: ResourceView, report: Report, fn: () => void): void {
    try {
        fn();
    } catch (e) {
        report(
            {
                problem: `perfguard could not evaluate ${shortLabel(resource)} (internal error ${thrownName(e)}): its verdict is unknown.`,
                fix: `report this perfguard bug with the resource type ${resource.type} and the error below; meanwhile check this resource by hand (the other resources were evaluated)`,
                basis: [thrownBasis(e)],
            },
            resource,
        );
    }
}

/** What an internal error's problem line calls it: the error class, never its message. */
export function thrownName(e: unknown): string {
    return e instanceof Error ? shortName(e.name) : "a non-Error value";
}

/** The basis line of an internal error: its class and the start of its message. */
export function thrownBasis(e: unknown): string {
    return e instanceof Error ? `internal error ${e.name}: ${e.message.slice(0, 200)}` : "a non-Error value was thrown";
}
