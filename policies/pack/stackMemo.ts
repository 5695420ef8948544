/**
 * A per-stack, per-config memo for a room's evaluation: the stack policies of one AnalyzeStack
 * share one StackView (resources.ts), so each room computes its evaluation once per call and
 * config, and the memo goes with the StackView (WeakMap) when the call ends.
 */
import type { StackView } from "./resources";

/** A memo: `of(stack, key, compute)` runs `compute` once per stack object and config key. */
export interface StackMemo<T> {
    of(stack: StackView, key: string, compute: () => T): T;
}

export function stackMemo<T>(): StackMemo<T> {
    const memo = new WeakMap<StackView, Map<string, T>>();
    return {
        of(stack, key, compute) {
            let byKey = memo.get(stack);
            if (!byKey) {
                byKey = new Map();
                memo.set(stack, byKey);
            }
            let value = byKey.get(key);
            if (value === undefined) {
                value = compute();
                byKey.set(key, value);
            }
            return value;
        },
    };
}
