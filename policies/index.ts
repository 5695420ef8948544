/**
 * The registry: every perfguard policy, in the order the README lists them. Docs and tests are
 * checked against this list (test/registry.test.ts).
 */
import type { Policies } from "@pulumi/policy";
import { citrixBrokerThrottle } from "./citrix/citrix-broker-throttle";
import { citrixBrokeringCapacity } from "./citrix/citrix-brokering-capacity";
import { citrixSiteDatabaseLoad } from "./citrix/citrix-site-database-load";
import { citrixSiteLimits } from "./citrix/citrix-site-limits";
import { citrixZoneRttLimit } from "./citrix/citrix-zone-rtt-limit";
import { citrixZoneRttWarning } from "./citrix/citrix-zone-rtt-warning";
import { nsxAlbSeCapacity } from "./nsx-alb/nsx-alb-se-capacity";
import { nsxAlbSeCapacityAdvisory } from "./nsx-alb/nsx-alb-se-capacity-advisory";
import { nsxAlbSeDedicatedDispatcher } from "./nsx-alb/nsx-alb-se-dedicated-dispatcher";
import { nsxAlbSeMinimumResources } from "./nsx-alb/nsx-alb-se-minimum-resources";
import { perfguardFacts } from "./perfguard-facts";
import { xenDom0Workload } from "./xen/xen-dom0-workload";
import { xenGuestNetworkShare } from "./xen/xen-guest-network-share";

export const policies: Policies = [
    perfguardFacts,
    citrixZoneRttLimit,
    citrixZoneRttWarning,
    citrixBrokerThrottle,
    citrixBrokeringCapacity,
    citrixSiteLimits,
    citrixSiteDatabaseLoad,
    nsxAlbSeCapacity,
    nsxAlbSeCapacityAdvisory,
    nsxAlbSeMinimumResources,
    nsxAlbSeDedicatedDispatcher,
    xenDom0Workload,
    xenGuestNetworkShare,
];
