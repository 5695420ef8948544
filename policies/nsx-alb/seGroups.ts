/**
 * NSX ALB (Avi) as a stack declares it: SE groups declared in the stack or described in policy
 * config (the controller's Default-Group, say), and each virtual service (VS) joined to its SE
 * group by its references (refs.ts parses them). The SE group fields are read in seGroupFields.ts,
 * a VS's demand in vsDemand.ts.
 *
 * The SE groups themselves, indexed for the joins (by URN, name, uuid, cloud, tenant, Controller),
 * are in groupIndex.ts.
 */
import { ResourceView as ResourceViewClass } from "../pack/resources";
import type { ResourceView, StackView } from "../pack/resources";
import { AviRef, canonicalUuid, foldName, looksLikeUuid, parseAviRef } from "./refs";
import { withCertificateKey } from "./certificates";
import { currentInventory } from "../pack/inventory/current";
import { holdsStacks } from "../pack/inventory/empty";
import { INVENTORY_ENV } from "../pack/inventory/types";
import { field, isUnknown, parseGoBool, UNKNOWN } from "../pack/values";
import { DEFAULT_SE_GROUP, SE_GROUP_TYPE } from "./seGroupFields";
import { readVsDemand, VS_TYPE, VsDemandRead } from "./vsDemand";
import { compare, controllerOf, GroupIndex, IndexedGroup, push, refKey, SEG, SeGroupView, textProp } from "./groupIndex";

export type { SeGroupView } from "./groupIndex";
export { controllerOf } from "./groupIndex";

/** Why a VS could not be joined to an SE group, and what would make it joinable. */
export interface Unresolved {
    readonly reason: string;
    readonly remedy: string;
    /** For an ambiguous ref: the groups it may be on (each counts it, conservatively, in its busiest SE). */
    readonly candidates?: readonly SeGroupView[];
}

/** A VS and the SE group it is placed on. */
export interface VsPlacement {
    readonly vs: ResourceView;
    /** The group, or undefined when it cannot be known (see `unresolved`). */
    readonly group: SeGroupView | undefined;
    /** How the group was found, e.g. "seGroupRef property dependency", "perfguard:seGroup in markers". */
    readonly via?: string;
    /** Why the group is not known: "not checked", never skipped. */
    readonly unresolved?: Unresolved;
    /** For an SNI child (type VS_TYPE_VH_CHILD): its parent VS, whose SEs it runs on. */
    readonly parent?: ResourceView;
    readonly demand: VsDemandRead;
    /**
     * The VS's `scaleoutEcmp` is "true" (Go strconv.ParseBool): BGP/ECMP scale-out, ingress spread
     * by the upstream router. Unknown or invalid is not a default: scaleoutEcmpUnread says so, and
     * the evaluation judges the group with native and with BGP/ECMP scale-out.
     */
    readonly scaleoutEcmp?: boolean;
    /** `scaleoutEcmp` is unknown in this preview, or not a Go boolean. */
    readonly scaleoutEcmpUnread?: "unknown" | "invalid";
}

/** The NSX ALB objects of a stack. */
export interface AviStack {
    /** Groups declared in the stack (sorted by URN), then groups described in config (by key). */
    readonly groups: readonly SeGroupView[];
    /** Every VS (sorted by URN, so that no verdict depends on the engine's order). */
    readonly placements: readonly VsPlacement[];
}

/**
 * The SE group name a literal reference names (`/api/serviceenginegroup/?name=NAME`, also after a
 * controller URL and among other query parameters, URL-decoded).
 * @returns the name, or undefined for other references (a UUID ref, another object type).
 */
export function seGroupNameOfRef(ref: string): string | undefined {
    const parsed = parseAviRef(ref, "serviceenginegroup");
    return parsed?.by === "name" ? parsed.name : undefined;
}

type Resolution = { readonly group: SeGroupView; readonly via: string } | { readonly unresolved: Unresolved };

const DECLARE =
    "declare perfguard:seGroup=<SE group name or uuid> on the virtual service, or describe the group in policy config seGroups (keyed by name or uuid)";

/**
 * A ref to a group this stack does not declare: without an inventory, another stack's group
 * whose load is unknown (judging this stack's VSs alone would be a silent pass); with one, a
 * group no stack of the inventory declares either.
 */
function notOwned(what: string): Unresolved {
    return holdsStacks(currentInventory())
        ? { reason: `${what} not in this stack, the inventory or config seGroups`, remedy: `add the stack that declares it to ${INVENTORY_ENV}, or ${DECLARE}` }
        : {
              reason: `${what} this stack does not declare: other stacks' load on it is unknown`,
              remedy: `set ${INVENTORY_ENV} to the stacks' state (docs/shared-capacity.md), or ${DECLARE}`,
          };
}

function ambiguous(what: string, found: readonly IndexedGroup[]): Resolution {
    const names = found
        .map((g) => g.group.label)
        .sort(compare)
        .slice(0, 3)
        .join(", ");
    return {
        unresolved: {
            reason: `${what} matches ${found.length} SE groups (${names}) that the join cannot tell apart`,
            remedy: "name the cloud and tenant in the ref (?name=...&cloud=...&tenant=...), or declare perfguard:seGroup=<uuid> on the virtual service",
            candidates: found.map((g) => g.group),
        },
    };
}

/** Resolves a parsed ref (or a fact's text) to exactly one group, or says why not. */
function resolveRef(
    index: GroupIndex,
    ref: AviRef,
    what: string,
    vsCloud: string | undefined,
    vsTenant: string | undefined,
    vsController?: string,
): Resolution {
    if (ref.by === "uuid") {
        const found = index.byUuid(ref.uuid);
        if (found.length === 1) {
            return { group: found[0].group, via: what };
        }
        if (found.length > 1) {
            return ambiguous(what, found);
        }
        if (ref.name === undefined) {
            return { unresolved: notOwned(`${what} names an SE group by uuid`) };
        }
        return resolveRef(index, { by: "name", name: ref.name }, what, vsCloud, vsTenant, vsController);
    }
    const { found, unknownNames } = index.byName(
        ref.name,
        ref.cloud !== undefined ? foldName(ref.cloud) : vsCloud,
        ref.tenant !== undefined ? foldName(ref.tenant) : vsTenant,
        vsController,
    );
    if (found.length === 1) {
        return { group: found[0].group, via: what };
    }
    if (found.length > 1) {
        return ambiguous(what, found);
    }
    return {
        unresolved: {
            ...(unknownNames
                ? {
                      reason: `${what} names an SE group not found, and an SE group's name is unknown in this preview`,
                      remedy: "known after apply: run `pulumi policy analyze` after the update, or " + DECLARE,
                  }
                : notOwned(`${what} names an SE group`)),
        },
    };
}

/** Reads a `perfguard:seGroup` fact: a name, a uuid or a ref. */
function factRef(text: string): AviRef {
    return parseAviRef(text, SEG) ?? (looksLikeUuid(text, SEG) ? { by: "uuid", uuid: canonicalUuid(text, SEG) } : { by: "name", name: text });
}

/**
 * The VS's own SE group: the seGroupRef property dependency (the only join a preview allows),
 * else the ref itself in any of its forms, else (no ref) the Controller's Default-Group; a
 * perfguard:seGroup fact names it when the ref cannot, and must agree with it when both do.
 */
function ownGroup(stack: StackView, index: GroupIndex, vs: ResourceView): Resolution {
    const cloud = refKey(vs.props, "cloudRef", "cloud");
    const tenant = refKey(vs.props, "tenantRef", "tenant");
    const vsCloud = cloud === "unknown" || cloud?.startsWith("uuid:") ? undefined : cloud;
    const vsTenant = tenant === "unknown" || tenant?.startsWith("uuid:") ? undefined : tenant;
    // Another Controller's group of the same name is another group (stacks may share names).
    const vsController = controllerOf(vs);
    let fromRef: Resolution;
    const deps = stack.dependencyOf(vs, "seGroupRef", SE_GROUP_TYPE);
    const raw = field(vs.props, "seGroupRef");
    if (deps.length === 1) {
        const group = index.byUrn(deps[0].urn);
        fromRef = group
            ? { group, via: "seGroupRef property dependency" }
            : { unresolved: { reason: "seGroupRef depends on an SE group perfguard cannot read", remedy: DECLARE } };
    } else if (deps.length > 1) {
        fromRef = { unresolved: { reason: "seGroupRef depends on several SE groups", remedy: DECLARE } };
    } else if (raw === UNKNOWN || isUnknown(raw)) {
        // Optional + Computed in the provider: unset in the program is unknown in a preview too.
        fromRef = {
            unresolved: {
                reason: "seGroupRef is unknown in this preview (the provider computes it when unset)",
                remedy: "set seGroupRef to /api/serviceenginegroup/?name=<name>, or " + DECLARE,
            },
        };
    } else if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) {
        fromRef = resolveRef(
            index,
            { by: "name", name: DEFAULT_SE_GROUP },
            `no seGroupRef (the Controller's ${DEFAULT_SE_GROUP})`,
            vsCloud,
            vsTenant,
            vsController,
        );
    } else {
        const parsed = typeof raw === "string" ? parseAviRef(raw, SEG) : undefined;
        fromRef = parsed
            ? resolveRef(index, parsed, "seGroupRef", vsCloud, vsTenant, vsController)
            : { unresolved: { reason: "seGroupRef is not a serviceenginegroup reference perfguard can read", remedy: DECLARE } };
    }
    const fact = vs.facts.text("seGroup");
    if (fact.state === "absent") {
        return fromRef;
    }
    if (fact.state === "unknown" || fact.state === "invalid") {
        return {
            unresolved: {
                reason: `perfguard:seGroup is ${fact.state === "unknown" ? "unknown in this preview" : "invalid (perfguard-facts reports it)"}`,
                remedy: "declare perfguard:seGroup as a literal SE group name or uuid",
            },
        };
    }
    const fromFact = resolveRef(index, factRef(fact.value), fact.where, vsCloud, vsTenant, vsController);
    if ("group" in fromRef && "group" in fromFact && fromRef.group !== fromFact.group) {
        return {
            unresolved: {
                reason: `${fact.where} names ${fromFact.group.label} but seGroupRef names ${fromRef.group.label}`,
                remedy: "make perfguard:seGroup name the SE group seGroupRef points to, or remove it",
            },
        };
    }
    return "group" in fromRef ? fromRef : fromFact;
}

/** The parent of an SNI child VS (vhParentVsRef: property dependency, then ref by name or uuid). */
function parentOf(stack: StackView, vs: ResourceView, byName: Map<string, ResourceView[]>, byUuid: Map<string, ResourceView[]>): ResourceView | Unresolved {
    const deps = stack.dependencyOf(vs, "vhParentVsRef", VS_TYPE);
    if (deps.length === 1) {
        return deps[0];
    }
    const remedy = "declare perfguard:seGroup=<the parent's SE group> on the SNI child, or set vhParentVsRef to /api/virtualservice/?name=<parent>";
    if (deps.length > 1) {
        return { reason: "vhParentVsRef depends on several virtual services", remedy };
    }
    const raw = field(vs.props, "vhParentVsRef");
    if (raw === UNKNOWN || isUnknown(raw)) {
        return { reason: "vhParentVsRef is unknown in this preview", remedy };
    }
    const parsed = typeof raw === "string" ? parseAviRef(raw, "virtualservice") : undefined;
    if (!parsed) {
        return {
            reason:
                raw === undefined || raw === null
                    ? "an SNI child (type VS_TYPE_VH_CHILD) without vhParentVsRef"
                    : "vhParentVsRef is not a virtualservice reference perfguard can read",
            remedy,
        };
    }
    const found =
        parsed.by === "uuid" ? (byUuid.get(parsed.uuid) ?? (parsed.name ? byName.get(foldName(parsed.name)) : undefined)) : byName.get(foldName(parsed.name));
    if (!found || found.length === 0) {
        return { reason: "vhParentVsRef names a virtual service that is not in this stack", remedy };
    }
    return found.length === 1 ? found[0] : { reason: `vhParentVsRef matches ${found.length} virtual services the join cannot tell apart`, remedy };
}

/**
 * Builds the NSX ALB view of a stack in one pass (O(resources), plus sorting): groups, and each
 * VS joined to its group, or with the reason it cannot be. Verdicts built on it do not depend on
 * the order the engine sends resources in (everything is sorted by URN or key; no first-wins).
 * @param stack - all resources (AnalyzeStack outputs, with property dependencies).
 * @param configGroups - policy config `seGroups`: name or uuid -> SE group fields.
 * @returns groups and placements; never throws on odd props.
 */
export function aviStack(stack: StackView, configGroups: Readonly<Record<string, unknown>> = {}): AviStack {
    const index = new GroupIndex(stack, configGroups);
    const vss = [...stack.ofType(VS_TYPE)].sort((a, b) => compare(a.urn, b.urn));
    const byName = new Map<string, ResourceView[]>();
    const byUuid = new Map<string, ResourceView[]>();
    for (const vs of vss) {
        const name = textProp(vs.props, "name");
        push(byName, foldName(name === undefined || name === "unknown" ? vs.name : name), vs);
        const uuid = textProp(vs.props, "uuid");
        if (uuid !== undefined && uuid !== "unknown") {
            push(byUuid, canonicalUuid(uuid, "virtualservice"), vs);
        }
    }
    const own = new Map<ResourceView, Resolution>(vss.map((vs) => [vs, ownGroup(stack, index, vs)]));
    const placements: VsPlacement[] = vss.map((vs) => withEcmp(vs, placementOf(vs)));
    return { groups: index.groups, placements };

    function placementOf(vs: ResourceView): VsPlacement {
        // The key type of the certificates it names, read from the stack before any fact (certificates.ts).
        const demand = withCertificateKey(stack, vs, readVsDemand(vs));
        const type = field(vs.props, "type");
        if (type === UNKNOWN || isUnknown(type)) {
            return {
                vs,
                group: undefined,
                demand,
                unresolved: {
                    reason: "type is unknown in this preview (an SNI child runs on its parent's SE group)",
                    remedy: "set type literally, or declare perfguard:seGroup=<name> on the virtual service",
                },
            };
        }
        if (type !== "VS_TYPE_VH_CHILD") {
            const r = own.get(vs) as Resolution;
            return "group" in r ? { vs, group: r.group, via: r.via, demand } : { vs, group: undefined, demand, unresolved: r.unresolved };
        }
        // An SNI child runs on its parent's SEs: its own seGroupRef is not what places it.
        const parent = parentOf(stack, vs, byName, byUuid);
        const fact = vs.facts.text("seGroup");
        if (!(parent instanceof ResourceViewClass)) {
            const r = fact.state === "ok" ? (own.get(vs) as Resolution) : undefined;
            return r && "group" in r
                ? { vs, group: r.group, via: r.via, demand }
                : { vs, group: undefined, demand, unresolved: r && "unresolved" in r ? r.unresolved : parent };
        }
        const parentType = field(parent.props, "type");
        const r = own.get(parent);
        if (parentType === "VS_TYPE_VH_CHILD" || !r) {
            return {
                vs,
                group: undefined,
                demand,
                parent,
                unresolved: { reason: "vhParentVsRef names another SNI child", remedy: "point vhParentVsRef at the SNI parent (type VS_TYPE_VH_PARENT)" },
            };
        }
        return "group" in r
            ? { vs, group: r.group, via: `its SNI parent ${parent.label} (${r.via})`, parent, demand }
            : {
                  vs,
                  group: undefined,
                  demand,
                  parent,
                  unresolved: { reason: `its SNI parent's SE group is not known: ${r.unresolved.reason}`, remedy: r.unresolved.remedy },
              };
    }
}

/** The placement with the VS's own scaleoutEcmp (set only when true; marked when unknown or not a Go boolean). */
function withEcmp(vs: ResourceView, placement: VsPlacement): VsPlacement {
    const raw = field(vs.props, "scaleoutEcmp");
    if (raw === UNKNOWN || isUnknown(raw)) {
        return { ...placement, scaleoutEcmpUnread: "unknown" };
    }
    if (raw === undefined || raw === null) {
        return placement;
    }
    const on = parseGoBool(raw);
    return on === true ? { ...placement, scaleoutEcmp: true } : on === undefined ? { ...placement, scaleoutEcmpUnread: "invalid" } : placement;
}
