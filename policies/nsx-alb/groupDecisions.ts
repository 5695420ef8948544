/**
 * How the SE group sizing policies (nsx-alb-se-minimum-resources, nsx-alb-se-dedicated-dispatcher)
 * record a field they cannot use, so that each group they read ends in a verdict, a pass, not
 * applicable or "not checked" (never skipped silently).
 */
import type { FieldRead } from "./seGroupFields";
import type { Report } from "../pack/definePolicy";
import type { ResourceView } from "../pack/resources";

/** The remedy of a field that is unknown in the preview. */
export const UNKNOWN_FIELD_REMEDY = "give it a value known at preview (a literal or stack config), or rerun the preview once the resource it comes from exists";

/**
 * True when `read` holds a value. Otherwise records why on `group`: an unknown field (preview) is
 * "not checked", an invalid one is not applicable here (perfguard-facts reports it, mandatory).
 */
export function usable<T>(name: string, read: FieldRead<T>, group: ResourceView, report: Report): read is Extract<FieldRead<T>, { state: "ok" }> {
    if (read.state === "unknown") {
        report.notChecked({ reason: `${name} is unknown in this preview`, remedy: `${name}: ${UNKNOWN_FIELD_REMEDY}` }, group);
        return false;
    }
    if (read.state === "invalid") {
        report.notApplicable(`${name} is invalid (perfguard-facts reports it)`, group);
        return false;
    }
    return true;
}
