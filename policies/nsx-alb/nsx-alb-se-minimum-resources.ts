/**
 * nsx-alb-se-minimum-resources: an SE group's memory and disk per Service Engine (SE) should be
 * at least the size the published per-SE figures were measured at for its vCPU count.
 */
import { SE_MEMORY_MIN_GB, testedSeSize } from "../../model/seTable";
import { fieldText, readSeGroupFieldsOf, SE_GROUP_TYPE, SeGroupFields } from "./seGroupFields";
import { resourcePolicy } from "../pack/definePolicy";
import { shortLabel, wholeNameBasis } from "../pack/message";
import { remediatedProps } from "../pack/resources";
import { usable } from "./groupDecisions";
import { isRecord } from "../pack/values";

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

export const nsxAlbSeMinimumResources = resourcePolicy<Record<string, never>>({
    name: "nsx-alb-se-minimum-resources",
    description: "NSX ALB Service Engines should have the memory and disk they were measured with.",
    enforcementLevel: "advisory",
    types: [SE_GROUP_TYPE],
    check(group, _config, report) {
        const fields = readSeGroupFieldsOf(group);
        const { vcpusPerSe: vcpus, memoryPerSe: memory, diskPerSe: disk } = fields;
        if (!usable("vcpusPerSe", vcpus, group, report)) {
            return; // the tested size depends on it
        }
        const tested = testedSeSize(vcpus.value);
        const needMb = Math.max(tested.memoryGb, SE_MEMORY_MIN_GB) * 1024;
        const memoryUsable = usable("memoryPerSe", memory, group, report);
        const diskUsable = usable("diskPerSe", disk, group, report);
        const read = [
            fieldText("vcpusPerSe", vcpus.value, vcpus.where),
            memoryUsable ? fieldText("memoryPerSe", memory.value, memory.where, "MB") : "memoryPerSe not usable",
            diskUsable ? fieldText("diskPerSe", disk.value, disk.where, "GB") : "diskPerSe not usable",
        ].join(", ");
        const testedText = `${tested.basis}: ${needMb} MB memory, ${tested.diskGb} GB disk (SE memory at least ${SE_MEMORY_MIN_GB} GB, the published minimum)`;
        // A field not usable is "not checked" (recorded by usable): the group passes only when both were judged.
        if (memoryUsable && diskUsable) {
            report.applied(`${read} against the tested size, ${testedText}`, group);
        }
        const found = shortfalls(fields);
        if (found.length === 0) {
            return;
        }
        const have = found.map((s) => (s.field === "memoryPerSe" ? `${s.have} MB memory` : `${s.have} GB disk`)).join(", ");
        const need = found.map((s) => (s.field === "memoryPerSe" ? `${s.need} MB` : `${s.need} GB`)).join(", ");
        report(
            {
                problem: `${shortLabel(group)}: ${have} per ${vcpus.value} vCPU SE; tested: ${need}; capacity may be lower.`,
                fix: `set ${found.map((s) => `${s.field} "${s.need}"`).join(" and ")} (at enforcement level remediate this policy sets ${found.length === 1 ? "it" : "them"})`,
                basis: [read, `tested size: ${testedText}`, ...wholeNameBasis(group)],
            },
            group,
        );
    },
    remediate(group) {
        if (!isRecord(group.props)) {
            return undefined;
        }
        const found = shortfalls(readSeGroupFieldsOf(group));
        if (found.length === 0) {
            return undefined;
        }
        // Only these fields change; every other keeps its secret marker (remediatedProps).
        return remediatedProps(group, Object.fromEntries(found.map((s) => [s.field, String(s.need)])));
    },
});
