/**
 * xen-dom0-workload: a Xen host's dom0 is for management only (source: dom0 keeps >= 50% of the
 * link whenever it transfers, so any dom0 workload takes bandwidth from every guest on the host).
 * What the workload costs the guests comes from the same share model, inputs and config keys as
 * xen-guest-network-share (policies/xen/hostModel.ts), so both state one figure for a host.
 */
import { isolate, stackPolicy } from "../pack/definePolicy";
import { xenEvaluation } from "./evaluation";
import { dom0WorkloadMessage } from "./shareMessages";
import { XEN_SHARE_SCHEMA, XenShareConfig } from "./hosts";

const POLICY = "xen-dom0-workload";

export const xenDom0Workload = stackPolicy<XenShareConfig>({
    name: POLICY,
    description: "A Xen host's dom0 should run management services only.",
    enforcementLevel: "advisory",
    configSchema: { properties: XEN_SHARE_SCHEMA },
    types: [],
    roles: ["dom0"],
    check(stack, config, report) {
        const evaluation = xenEvaluation(stack, config);
        const services = [...evaluation.layout.dom0Services].sort((a, b) => (a.resource.urn < b.resource.urn ? -1 : a.resource.urn > b.resource.urn ? 1 : 0));
        for (const service of services) {
            isolate(service.resource, report, () => {
                if (service.management) {
                    report.notApplicable(
                        `runs in dom0 as management (${service.role.state === "ok" ? service.role.where : "perfguard:xenDom0Role"}), which dom0 is for`,
                        service.resource,
                    );
                    return;
                }
                if (service.role.state === "unknown" || service.role.state === "invalid") {
                    report.notChecked(
                        {
                            reason: `its perfguard:xenDom0Role is ${service.role.state === "unknown" ? "unknown in this preview" : "invalid"}`,
                            remedy: "declare perfguard:xenDom0Role literally (management for a management tool)",
                        },
                        service.resource,
                    );
                    return;
                }
                const host = service.host ? evaluation.hostOf(service.host.name) : undefined;
                report(dom0WorkloadMessage(service, host, evaluation.config, POLICY), service.resource);
            });
        }
    },
});
