/**
 * The NSX ALB room's descriptor (policies/pack/system.ts): its figures are nsxAlbFigures, read
 * with nsx-alb-se-capacity's settings.
 */
import { policyProps, SystemDescriptor } from "../pack/system";
import { nsxAlbFigures } from "./figures";

export const nsxAlbSystem: SystemDescriptor = {
    id: "nsx-alb",
    title: "NSX ALB",
    order: 1,
    figures: (stack, config) => nsxAlbFigures(stack, policyProps(config, "nsx-alb-se-capacity")),
};
