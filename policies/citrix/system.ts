/**
 * The Citrix room's descriptor (policies/pack/system.ts): its figures are citrixFigures, and a
 * Delivery Group's (or a zone lock's) response, launch time and brokered/s follow the one Site
 * database's response scale (evaluation.ts, underSiteCap and shareSiteCap).
 */
import type { SystemDescriptor } from "../pack/system";
import { citrixEvaluations, citrixFigures } from "./evaluation";

export const citrixSystem: SystemDescriptor = {
    id: "citrix",
    title: "Citrix",
    order: 0,
    figures: (stack, config) => citrixFigures(stack, config),
    scaling: {
        kinds: ["deliveryGroup", "zoneLock"],
        // Mean response and launch time × scale, brokered/s ÷ scale; the timed-out share does not move with it.
        powers: { meanResponseS: 1, launchTimeS: 1, brokeredPerS: -1 },
        cause: "site-database-share",
        label: "Site database share",
        scaleOf: (stack, config) => citrixEvaluations(stack, config).capacity.database.responseScale,
    },
};
