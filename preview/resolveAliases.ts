/**
 * The aliases the engine hands analyzers (pkg/resource/deploy/step_generator.go, getOldResource):
 * a resource's aliases (specs collapsed to URNs, plus the aliases its parent's alias implies) are
 * looked up in the stack's previous state; the first one found, unless the resource's own URN is
 * there, is the one alias AnalyzerResourceOptions carries. A stack with no previous state gets none.
 */
import * as aliasproto from "@pulumi/pulumi/proto/alias_pb";
import { ROOT_STACK_TYPE } from "./types";

/** The qualified type of a URN (`parent$child`), "" when it is not a URN. */
function qualifiedType(urn: string): string {
    return urn.split("::")[2] ?? "";
}

function urnName(urn: string): string {
    return urn.split("::").slice(3).join("::");
}

/** resource.CreateURN: the parent's qualified type prefixes the type, unless there is no parent. */
function createUrn(name: string, type: string, parent: string, project: string, stack: string): string {
    const qualified = parent ? `${qualifiedType(parent)}$${type}` : type;
    return `urn:pulumi:${stack}::${project}::${qualified}::${name}`;
}

/** Matches aliases against the previous state, in registration order, as the step generator does. */
export class AliasResolver {
    /** URN -> the alias URN it matched in the previous state (for its children's aliases). */
    private readonly matched = new Map<string, string>();

    /**
     * @param olds - the URNs of the stack's previous state (empty: a stack never deployed).
     */
    constructor(
        private readonly olds: ReadonlySet<string>,
        private readonly project: string,
        private readonly stack: string,
    ) {}

    private collapse(name: string, type: string, parent: string, alias: aliasproto.Alias): string {
        if (alias.getAliasCase() === aliasproto.Alias.AliasCase.URN) {
            return alias.getUrn();
        }
        const spec = alias.getSpec() ?? new aliasproto.Alias.Spec();
        let aliasParent = spec.getParenturn() || parent;
        if (spec.getParenturn()) {
            aliasParent = this.matched.get(aliasParent) ?? aliasParent;
        }
        if (spec.getNoparent() || (aliasParent !== "" && qualifiedType(aliasParent).split("$").pop() === ROOT_STACK_TYPE)) {
            aliasParent = "";
        }
        return createUrn(spec.getName() || name, spec.getType() || type, aliasParent, spec.getProject() || this.project, spec.getStack() || this.stack);
    }

    /** generateAliases: the resource's aliases, then those its parent's matched alias implies. */
    private candidates(name: string, type: string, parent: string, aliases: aliasproto.Alias[]): string[] {
        const out: string[] = [];
        const add = (urn: string) => {
            if (!out.includes(urn)) {
                out.push(urn);
            }
        };
        for (const alias of aliases) {
            add(this.collapse(name, type, parent, alias));
        }
        const parentAlias = parent ? this.matched.get(parent) : undefined;
        if (parentAlias) {
            const inherit = (childType: string, childName: string) => {
                const parentName = urnName(parent);
                const aliasName = childName.startsWith(parentName) ? urnName(parentAlias) + childName.slice(parentName.length) : childName;
                add(`urn:pulumi:${this.stack}::${this.project}::${qualifiedType(parentAlias)}$${childType}::${aliasName}`);
            };
            inherit(type, name);
            for (const alias of aliases) {
                const child = this.collapse(name, type, parent, alias);
                inherit(qualifiedType(child).split("$").pop() ?? type, urnName(child));
            }
        }
        return out;
    }

    /** True when `urn` was registered under an alias of the previous state (its children inherit it). */
    isAliased(urn: string): boolean {
        return this.matched.has(urn);
    }

    /**
     * The aliases the engine would send for a resource registered as `urn`: [] or the one alias
     * URN that matched the previous state. Call in registration order (children after parents).
     */
    resolve(urn: string, name: string, type: string, parent: string, aliases: aliasproto.Alias[]): string[] {
        if (this.olds.size === 0 || this.olds.has(urn)) {
            return [];
        }
        const found = this.candidates(name, type, parent, aliases).find((a) => this.olds.has(a));
        if (!found) {
            return [];
        }
        this.matched.set(urn, found);
        return [found];
    }
}
