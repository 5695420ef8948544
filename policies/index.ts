/**
 * The registry: every perfguard policy, in the order the README lists them. Docs and tests are
 * checked against this list (test/registry.test.ts).
 */
import type { Policies } from "@pulumi/policy";
import { citrixBrokerThrottle } from "./citrix-broker-throttle";
import { citrixBrokeringCapacity } from "./citrix-brokering-capacity";
import { citrixSiteLimits } from "./citrix-site-limits";
import { citrixZoneRttLimit } from "./citrix-zone-rtt-limit";
import { perfguardFacts } from "./perfguard-facts";

export const policies: Policies = [
    perfguardFacts,
    citrixZoneRttLimit,
    citrixBrokerThrottle,
    citrixBrokeringCapacity,
    citrixSiteLimits,
];
