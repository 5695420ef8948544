/**
 * The Citrix room's descriptor (policies/pack/system.ts): its figures are citrixFigures, and how
 * `perfguard diff` words a Delivery Group's (or a zone lock's) response, launch time and brokered/s
 * moved by the one Site database's response scale (none moves so today: see scaleOf).
 */
import type { SystemDescriptor } from "../pack/system";
import { citrixFigures } from "./evaluation";

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
        moved: "moved only by the shared Site database",
        // Each lock is judged on its own (issue 30): its figures are never scaled by a Site cap, even
        // under a measured measuredSiteBrokeredPerS (citrix-site-database-load's verdict alone), so
        // the scale they follow is 1 (what the capacity evaluation's Site, which had no measured
        // rate, always gave before the room had one evaluation).
        scaleOf: () => 1,
    },
};
