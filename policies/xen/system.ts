/**
 * The Xen room's descriptor (policies/pack/system.ts): its figures are xenFigures, read with
 * xen-guest-network-share's settings.
 */
import { policyProps, SystemDescriptor } from "../pack/system";
import { xenFigures } from "./evaluation";

export const xenSystem: SystemDescriptor = {
    id: "xen",
    title: "Xen",
    order: 2,
    figures: (stack, config) => xenFigures(stack, policyProps(config, "xen-guest-network-share")),
};
