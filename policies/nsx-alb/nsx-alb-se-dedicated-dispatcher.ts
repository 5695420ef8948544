/**
 * nsx-alb-se-dedicated-dispatcher: SE groups of 4 or more vCPUs per Service Engine (SE) should
 * dedicate dispatcher cores, as the published per-SE figures were measured.
 */
import { DISPATCHER_MIN_VCPUS, fieldText, readSeGroupFields, SE_GROUP_TYPE } from "./seGroups";
import { resourcePolicy } from "../pack/definePolicy";
import { shortLabel, wholeNameBasis } from "../pack/message";
import { usable } from "./groupDecisions";
import { isRecord } from "../pack/values";
import { remediatedProps, ResourceView } from "../pack/resources";

export interface DedicatedDispatcherConfig {
    /** SE groups with at least this many vCPUs per SE need dedicatedDispatcherCore "true". */
    minVcpus: number;
}

/** The group's vcpusPerSe and dispatcher setting when it lacks the dispatcher (else undefined). */
function missingDispatcher(group: ResourceView, config: DedicatedDispatcherConfig): { vcpus: string; dispatcher: string } | undefined {
    const fields = readSeGroupFields(group.props);
    const { vcpusPerSe: vcpus, dedicatedDispatcherCore: dispatcher } = fields;
    if (vcpus.state !== "ok" || dispatcher.state !== "ok" || vcpus.value < config.minVcpus || dispatcher.value) {
        return undefined; // unknown (preview) or invalid (perfguard-facts reports it), small, or already set
    }
    return {
        vcpus: fieldText("vcpusPerSe", vcpus.value, vcpus.where),
        dispatcher: fieldText("dedicatedDispatcherCore", "false", dispatcher.where),
    };
}

/**
 * How the published figures were measured (NSX ALB 20.1.6 per-SE table, its dispatcher/proxy
 * core note: 4 cores 1 + 3, "2 dispatchers and 2 proxy cores for the L4 throughput test", 6 cores
 * 2 + 4; footnote ** of the L4 throughput row: 4 cores or more tested with 2 dispatcher cores).
 */
const MEASURED_WITH = "NSX ALB 20.1.6 per-SE table: 4 vCPU row measured with 1 dispatcher + 3 proxy cores (L4 throughput 2 + 2), 6 vCPU row 2 + 4";

export const nsxAlbSeDedicatedDispatcher = resourcePolicy<DedicatedDispatcherConfig>({
    name: "nsx-alb-se-dedicated-dispatcher",
    description: "Large NSX ALB Service Engines should have a dedicated dispatcher core.",
    enforcementLevel: "advisory",
    configSchema: {
        properties: {
            minVcpus: {
                type: "integer",
                minimum: 1,
                maximum: 64,
                default: DISPATCHER_MIN_VCPUS,
                description: "SE groups with at least this many vCPUs per SE must set dedicatedDispatcherCore \"true\" (default 4: the 4 and 6 vCPU rows of the NSX ALB 20.1.6 per-SE table were measured with 1 and 2 dedicated dispatcher cores; the 4 vCPU L4 throughput with 2).",
            },
        },
    },
    types: [SE_GROUP_TYPE],
    check(group, config, report) {
        const { vcpusPerSe: vcpus, dedicatedDispatcherCore: dispatcher } = readSeGroupFields(group.props);
        if (!usable("vcpusPerSe", vcpus, group, report)) {
            return;
        }
        const vcpusText = fieldText("vcpusPerSe", vcpus.value, vcpus.where);
        if (vcpus.value < config.minVcpus) {
            report.notApplicable(`${vcpusText} below minVcpus ${config.minVcpus}`, group);
            return;
        }
        if (!usable("dedicatedDispatcherCore", dispatcher, group, report)) {
            return;
        }
        const read = `${vcpusText} at or above minVcpus ${config.minVcpus}; ${fieldText("dedicatedDispatcherCore", String(dispatcher.value), dispatcher.where)}`;
        report.applied(read, group);
        if (!missingDispatcher(group, config)) {
            return;
        }
        report({
            problem: `${shortLabel(group)}: ${vcpus.value} vCPUs per SE (minVcpus ${config.minVcpus}) but no dedicated dispatcher core, unlike the tested SE sizes.`,
            fix: `set dedicatedDispatcherCore "true" (enforcement level remediate sets it)`,
            // The vCPU figure's carrier is in the --explain record (read, above).
            basis: [fieldText("dedicatedDispatcherCore", String(dispatcher.value), dispatcher.where), MEASURED_WITH, ...wholeNameBasis(group)],
        }, group);
    },
    remediate(group, config) {
        if (!isRecord(group.props) || !missingDispatcher(group, config)) {
            return undefined;
        }
        // Only this field changes; every other keeps its secret marker (remediatedProps).
        return remediatedProps(group, { dedicatedDispatcherCore: "true" });
    },
});
