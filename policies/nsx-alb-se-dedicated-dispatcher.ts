/**
 * nsx-alb-se-dedicated-dispatcher: SE groups of 4 or more vCPUs per Service Engine (SE) should
 * dedicate dispatcher cores, as the published per-SE figures were measured.
 */
import { fieldText, readSeGroupFields, SE_GROUP_TYPE } from "./support/aviSeGroups";
import { resourcePolicy } from "./support/definePolicy";
import { applied, Applicability, notApplicable } from "./support/explain";
import { isRecord } from "./support/values";
import { remediatedProps, ResourceView } from "./support/resources";

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

/** --explain: vcpusPerSe against minVcpus and the dispatcher setting, or why they cannot be read. */
function explainDispatcher(group: ResourceView, config: DedicatedDispatcherConfig): Applicability {
    const { vcpusPerSe: vcpus, dedicatedDispatcherCore: dispatcher } = readSeGroupFields(group.props);
    if (vcpus.state !== "ok") {
        return notApplicable(`vcpusPerSe is ${vcpus.state === "unknown" ? "unknown in this preview" : "invalid (perfguard-facts reports it)"}`);
    }
    if (vcpus.value < config.minVcpus) {
        return notApplicable(`${fieldText("vcpusPerSe", vcpus.value, vcpus.where)} below minVcpus ${config.minVcpus}`);
    }
    if (dispatcher.state !== "ok") {
        return notApplicable(`dedicatedDispatcherCore is ${dispatcher.state === "unknown" ? "unknown in this preview" : "invalid (perfguard-facts reports it)"}`);
    }
    return applied(`${fieldText("vcpusPerSe", vcpus.value, vcpus.where)} at or above minVcpus ${config.minVcpus}; ${fieldText("dedicatedDispatcherCore", String(dispatcher.value), dispatcher.where)}`);
}

export const nsxAlbSeDedicatedDispatcher = resourcePolicy<DedicatedDispatcherConfig>({
    name: "nsx-alb-se-dedicated-dispatcher",
    description: "NSX ALB Service Engine groups with 4 or more vCPUs per SE should set a dedicated dispatcher core, as the published per-SE figures were measured.",
    enforcementLevel: "advisory",
    configSchema: {
        properties: {
            minVcpus: {
                type: "integer",
                minimum: 1,
                maximum: 64,
                default: 4,
                description: "SE groups with at least this many vCPUs per SE must set dedicatedDispatcherCore \"true\" (default 4: the 4 and 6 vCPU rows of the NSX ALB 20.1.6 per-SE table were measured with 1 and 2 dedicated dispatcher cores).",
            },
        },
    },
    types: [SE_GROUP_TYPE],
    explain: explainDispatcher,
    check(group, config, report) {
        const missing = missingDispatcher(group, config);
        if (!missing) {
            return;
        }
        report(
            `${group.label} has ${missing.vcpus}, at or above ${config.minVcpus} (minVcpus), but ${missing.dispatcher}. ` +
            `The NSX ALB 20.1.6 per-SE table measured its 4 vCPU row with 1 dedicated dispatcher core + 3 proxy cores and its 6 vCPU row with 2 + 4; ` +
            `without a dedicated dispatcher an SE of this size may not reach those figures. ` +
            `Fix: set dedicatedDispatcherCore to "true" (at enforcement level remediate this policy sets it).`,
            group,
        );
    },
    remediate(group, config) {
        if (!isRecord(group.props) || !missingDispatcher(group, config)) {
            return undefined;
        }
        // Only this field changes; every other keeps its secret marker (remediatedProps).
        return remediatedProps(group, { dedicatedDispatcherCore: "true" });
    },
});
