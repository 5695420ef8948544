/**
 * Option value parsers: strict plain decimals (no `1e3`, no `160ms`, no empty string), each with
 * its range and unit in the error, so `--rtt-ms abc` says what it wants.
 */
import { InvalidArgumentError } from "commander";
import { parsePlainDecimal } from "../policies/pack/values";

/** A range an option accepts; bounds inclusive unless `above` is set for the minimum. */
export interface NumberRange {
    readonly min: number;
    readonly max: number;
    /** The minimum itself is not allowed (e.g. a target response must be above 0 s). */
    readonly above?: boolean;
    readonly integer?: boolean;
    /** Unit named in the error, e.g. "ms". */
    readonly unit: string;
}

function describe(range: NumberRange): string {
    const kind = range.integer ? "a whole number" : "a plain decimal";
    const low = range.above ? `above ${range.min}` : `from ${range.min}`;
    return `${kind} of ${range.unit} ${low} to ${range.max}`;
}

/**
 * Builds a commander argParser for a number option.
 * Input: the range; output: a parser returning the number.
 * Throws InvalidArgumentError ("expected a plain decimal of ms from 0 to 10000") for anything
 * else; commander reports it with the option name and the CLI exits 2.
 */
export function numberIn(range: NumberRange): (value: string) => number {
    return (value: string) => {
        const n = parsePlainDecimal(value);
        const ok = n !== undefined && (range.above ? n > range.min : n >= range.min) && n <= range.max && (!range.integer || Number.isInteger(n));
        if (!ok || n === undefined) {
            throw new InvalidArgumentError(`expected ${describe(range)}.`);
        }
        return n;
    };
}

/**
 * Builds a commander argParser for one of fixed words (case-insensitive).
 * Output: the canonical word. Throws InvalidArgumentError listing the accepted words.
 */
export function oneOf<T extends string>(words: readonly T[]): (value: string) => T {
    return (value: string) => {
        const found = words.find((w) => w.toLowerCase() === value.trim().toLowerCase());
        if (found === undefined) {
            throw new InvalidArgumentError(`expected one of ${words.join(", ")}.`);
        }
        return found;
    };
}
