/**
 * nsx-alb-se-minimum-resources: an SE group's memory and disk per Service Engine (SE) should be
 * at least the size the published per-SE figures were measured at for its vCPU count.
 */
import { SE_MEMORY_MIN_GB, testedSeSize } from "../model/seCapacity";
import { fieldText, readSeGroupFields, SE_GROUP_TYPE, SeGroupFields } from "./support/aviSeGroups";
import { resourcePolicy } from "./support/definePolicy";
import { applied, Applicability, notApplicable } from "./support/explain";
import { remediatedProps, ResourceView } from "./support/resources";
import { isRecord } from "./support/values";

/** One field below its tested minimum. */
interface Shortfall {
    readonly field: "memoryPerSe" | "diskPerSe";
    readonly have: number;
    readonly where: string;
    /** The tested minimum, in the field's unit (MB for memory, GB for disk). */
    readonly need: number;
    readonly basis: string;
}

/**
 * The fields below the tested size for the group's vcpusPerSe (6 vCPU row beyond 6 vCPUs; at
 * least 2 GB memory, the published SE minimum). Unknown or invalid fields yield no shortfall.
 */
function shortfalls(fields: SeGroupFields): Shortfall[] {
    if (fields.vcpusPerSe.state !== "ok") {
        return [];
    }
    const tested = testedSeSize(fields.vcpusPerSe.value);
    const found: Shortfall[] = [];
    const needMb = Math.max(tested.memoryGb, SE_MEMORY_MIN_GB) * 1024;
    if (fields.memoryPerSe.state === "ok" && fields.memoryPerSe.value < needMb) {
        found.push({ field: "memoryPerSe", have: fields.memoryPerSe.value, where: fields.memoryPerSe.where, need: needMb, basis: tested.basis });
    }
    if (fields.diskPerSe.state === "ok" && fields.diskPerSe.value < tested.diskGb) {
        found.push({ field: "diskPerSe", have: fields.diskPerSe.value, where: fields.diskPerSe.where, need: tested.diskGb, basis: tested.basis });
    }
    return found;
}

/** --explain: memory and disk against the tested size, or why they cannot be compared. */
function explainMinimum(group: ResourceView): Applicability {
    const fields = readSeGroupFields(group.props);
    if (fields.vcpusPerSe.state !== "ok") {
        return notApplicable(`vcpusPerSe is ${fields.vcpusPerSe.state === "unknown" ? "unknown in this preview" : "invalid (perfguard-facts reports it)"}, so the tested size is not known`);
    }
    const tested = testedSeSize(fields.vcpusPerSe.value);
    const memory = fields.memoryPerSe.state === "ok" ? fieldText("memoryPerSe", fields.memoryPerSe.value, fields.memoryPerSe.where, "MB") : `memoryPerSe ${fields.memoryPerSe.state}`;
    const disk = fields.diskPerSe.state === "ok" ? fieldText("diskPerSe", fields.diskPerSe.value, fields.diskPerSe.where, "GB") : `diskPerSe ${fields.diskPerSe.state}`;
    return applied(`${fieldText("vcpusPerSe", fields.vcpusPerSe.value, fields.vcpusPerSe.where)}: ${memory} against ${Math.max(tested.memoryGb, SE_MEMORY_MIN_GB) * 1024} MB tested, ${disk} against ${tested.diskGb} GB tested`);
}

export const nsxAlbSeMinimumResources = resourcePolicy<Record<string, never>>({
    name: "nsx-alb-se-minimum-resources",
    description: "NSX ALB Service Engine groups should give each SE at least the memory and disk the published per-SE figures were measured with for its vCPU count.",
    enforcementLevel: "advisory",
    types: [SE_GROUP_TYPE],
    explain: explainMinimum,
    check(group, _config, report) {
        const fields = readSeGroupFields(group.props);
        const found = shortfalls(fields);
        if (found.length === 0 || fields.vcpusPerSe.state !== "ok") {
            return;
        }
        const vcpus = fieldText("vcpusPerSe", fields.vcpusPerSe.value, fields.vcpusPerSe.where);
        const parts = found.map((s) => {
            const unit = s.field === "memoryPerSe" ? "MB" : "GB";
            return `${fieldText(s.field, s.have, s.where, unit)} is below the tested ${s.need} ${unit} (${s.basis})`;
        });
        const sets = found.map((s) => `${s.field} to "${s.need}"`).join(" and ");
        report(
            `${group.label} has ${vcpus}, but ${parts.join(", and ")}. The published per-SE figures were measured at that size, ` +
            `and open connections are memory bound, so a smaller SE may carry less than perfguard's capacity checks assume. ` +
            `Fix: set ${sets} (at enforcement level remediate this policy sets them).`,
            group,
        );
    },
    remediate(group) {
        if (!isRecord(group.props)) {
            return undefined;
        }
        const found = shortfalls(readSeGroupFields(group.props));
        if (found.length === 0) {
            return undefined;
        }
        // Only these fields change; every other keeps its secret marker (remediatedProps).
        return remediatedProps(group, Object.fromEntries(found.map((s) => [s.field, String(s.need)])));
    },
});
