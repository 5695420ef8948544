import fc from "fast-check";
import type { TestResource } from "./policyHarness";

/**
 * Paths into property values, for tests that plant something (an unknown, a secret, a control
 * character) at every depth of a resource's props.
 */

export type Path = ReadonlyArray<string | number>;

/** Every path of `value` (the root included: whole props, a container, an element, a value), lists longer than 20 cut short. */
export function allPaths(value: unknown, prefix: Path = []): Path[] {
    if (Array.isArray(value)) {
        return [prefix, ...value.slice(0, 20).flatMap((v, i) => allPaths(v, [...prefix, i]))];
    }
    if (value !== null && typeof value === "object") {
        return [prefix, ...Object.entries(value).flatMap(([k, v]) => allPaths(v, [...prefix, k]))];
    }
    return [prefix];
}

/** `root` with the value at `at` replaced by `leaf` (unchanged where an earlier edit replaced an ancestor). */
export function replaceAt(root: unknown, at: Path, leaf: unknown): unknown {
    if (at.length === 0) {
        return leaf;
    }
    const [head, ...rest] = at;
    if (root === null || typeof root !== "object") {
        return root; // an earlier edit replaced an ancestor
    }
    if (Array.isArray(root)) {
        return root.map((v, i) => (i === head ? replaceAt(v, rest, leaf) : v));
    }
    const obj = root as Record<string, unknown>;
    return { ...obj, [head]: replaceAt(obj[head as string], rest, leaf) };
}

/** One of `stacks` with `leaf` planted at one to three paths of its resources' props (any depth). */
export function plantedAtEveryDepth(stacks: readonly TestResource[][], leaf: fc.Arbitrary<unknown>): fc.Arbitrary<TestResource[]> {
    return fc.constantFrom(...stacks).chain((stack) => {
        const spots = stack.flatMap((r, i) => allPaths(r.props).map((p) => [i, p] as const));
        return fc.array(fc.tuple(fc.constantFrom(...spots), leaf), { minLength: 1, maxLength: 3 }).map((edits) => {
            let edited = stack;
            for (const [[index, at], value] of edits) {
                edited = edited.map((r, i) => (i === index ? { ...r, props: replaceAt(r.props, at, value) as Record<string, unknown> } : r));
            }
            return edited;
        });
    });
}
