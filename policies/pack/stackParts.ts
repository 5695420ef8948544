/**
 * Which stacks an entity's figures count (PERFGUARD_INVENTORY): the parts of EntityFigures
 * (policies/pack/figures.ts) that `perfguard diff` reads to show only this stack's entities and the
 * shared objects, and to name the other stacks whose load joined them.
 */
import type { EntityFigures } from "./figures";
import { stackName } from "./inventory/messages";
import type { ResourceView } from "./resourceView";

/**
 * `othersOnly` when every resource the entity rests on is another stack's (none of this stack),
 * and `stacks`, those other stacks; neither without a resource of another stack.
 */
export function stackParts(resources: Iterable<ResourceView | undefined>): Pick<EntityFigures, "othersOnly" | "stacks"> {
    const stacks = new Set<string>();
    let own = false;
    for (const r of resources) {
        if (r?.origin) {
            stacks.add(stackName(r.origin.project, r.origin.stack));
        } else if (r) {
            own = true;
        }
    }
    return stacks.size === 0 ? {} : { ...(own ? {} : { othersOnly: true as const }), stacks: [...stacks].sort() };
}
