/**
 * nsx-alb-se-dedicated-dispatcher: SE groups of 4 or more vCPUs per Service Engine (SE) should
 * dedicate dispatcher cores, as the published per-SE figures were measured; smaller SEs should
 * not (the 1 and 2 vCPU rows were measured without one: with 2 vCPUs it leaves one proxy core).
 */
import { DISPATCHER_MIN_VCPUS, fieldText, readSeGroupFieldsOf, SE_GROUP_TYPE } from "./seGroupFields";
import { resourcePolicy } from "../pack/definePolicy";
import { Message, PROBLEM_LINE_MAX, shortLabel, wholeNameBasis } from "../pack/message";
import { usable } from "./groupDecisions";
import { isRecord } from "../pack/values";
import { remediatedProps, ResourceView } from "../pack/resources";

export interface DedicatedDispatcherConfig {
    /** SE groups with at least this many vCPUs per SE need dedicatedDispatcherCore "true". */
    minVcpus: number;
}

/** The group's vcpusPerSe and dispatcher setting when it lacks the dispatcher (else undefined). */
function missingDispatcher(group: ResourceView, config: DedicatedDispatcherConfig): { vcpus: string; dispatcher: string } | undefined {
    const fields = readSeGroupFieldsOf(group);
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

/** The source's layout for the small rows (its dispatcher/proxy core note: 1 and 2 core SEs, dedicated dispatcher False). */
const MEASURED_WITHOUT = "NSX ALB 20.1.6 per-SE table: the 1 and 2 vCPU rows were measured with dedicated dispatcher False (every core a proxy core)";

/**
 * A dedicated dispatcher on an SE below 4 vCPUs: one core only dispatches, the rest proxy. The
 * table's 1 and 2 vCPU rows were measured without one, so their CPU-bound figures (SSL TPS, L7
 * RPS, L4 CPS, SSL throughput) are not this SE's: nsx-alb-se-capacity's figures for it are not
 * measured (its basis says so), and this advisory names the two layouts that were.
 */
function smallDispatcherMessage(group: ResourceView, vcpus: number, where: string): Message {
    const what =
        vcpus === 1
            ? "a dedicated dispatcher core takes its only vCPU"
            : `a dedicated dispatcher core on ${vcpus} vCPUs per SE leaves ${vcpus - 1 === 1 ? "1 proxy core" : `${vcpus - 1} proxy cores`}`;
    const long = `${shortLabel(group)}: ${what}, a layout the table never measured.`;
    return {
        problem: long.length <= PROBLEM_LINE_MAX ? long : `${shortLabel(group)}: ${what} (not measured).`,
        fix: `set dedicatedDispatcherCore "false" (as the ${vcpus} vCPU row was measured), or vcpusPerSe "${DISPATCHER_MIN_VCPUS}" or more (measured with a dedicated dispatcher).`,
        basis: [fieldText("dedicatedDispatcherCore", "true", where), MEASURED_WITHOUT, MEASURED_WITH, ...wholeNameBasis(group)],
    };
}

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
                description:
                    'SE groups with at least this many vCPUs per SE must set dedicatedDispatcherCore "true" (default 4: the 4 and 6 vCPU rows of the NSX ALB 20.1.6 per-SE table were measured with 1 and 2 dedicated dispatcher cores; the 4 vCPU L4 throughput with 2).',
            },
        },
    },
    types: [SE_GROUP_TYPE],
    check(group, config, report) {
        const { vcpusPerSe: vcpus, dedicatedDispatcherCore: dispatcher } = readSeGroupFieldsOf(group);
        if (!usable("vcpusPerSe", vcpus, group, report)) {
            return;
        }
        const vcpusText = fieldText("vcpusPerSe", vcpus.value, vcpus.where);
        if (vcpus.value < config.minVcpus) {
            // Below the source's 4 vCPUs a dedicated dispatcher is a layout the table never measured:
            // with 2 vCPUs it leaves one core for TCP/SSL work, so the row's CPU figures overstate it.
            if (vcpus.value < DISPATCHER_MIN_VCPUS && dispatcher.state === "ok" && dispatcher.value) {
                report.applied(
                    `${vcpusText} below ${DISPATCHER_MIN_VCPUS} with ${fieldText("dedicatedDispatcherCore", "true", dispatcher.where)}: a layout not measured`,
                    group,
                );
                report(smallDispatcherMessage(group, vcpus.value, dispatcher.where), group);
                return;
            }
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
        report(
            {
                problem: `${shortLabel(group)}: ${vcpus.value} vCPUs per SE (minVcpus ${config.minVcpus}) but no dedicated dispatcher core, unlike the tested SE sizes.`,
                fix: `set dedicatedDispatcherCore "true" (enforcement level remediate sets it)`,
                // The vCPU figure's carrier is in the --explain record (read, above).
                basis: [fieldText("dedicatedDispatcherCore", String(dispatcher.value), dispatcher.where), MEASURED_WITH, ...wholeNameBasis(group)],
            },
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
