/**
 * Provider fields that perfguard parses itself (for instance the Avi provider's numbers and
 * booleans, which are strings), and the problems they have. One entry per resource type;
 * perfguard-facts reports the problems, the policies read the values.
 */
import type { ResourceView } from "./resources";

/**
 * A problem of fields that each read fine but not together (bufferSe above maxSe): its own fix,
 * since "write the field in the provider's string form" does not apply.
 */
export interface TypedFieldProblem {
    readonly text: string;
    readonly fix: string;
}

/** A reader of one resource type's typed fields: returns one sentence (or problem with its fix) per unreadable field. */
export type TypedFieldReader = (resource: ResourceView) => ReadonlyArray<string | TypedFieldProblem>;

const readers = new Map<string, TypedFieldReader>();

/** Registers the reader for a type token (called by the support module of that area). */
export function registerTypedFields(type: string, reader: TypedFieldReader): void {
    readers.set(type, reader);
}

/** The unreadable typed fields of `resource` (empty for types without typed fields). */
export function typedFieldProblems(resource: ResourceView): ReadonlyArray<string | TypedFieldProblem> {
    return readers.get(resource.type)?.(resource) ?? [];
}
