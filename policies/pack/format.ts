/** Number and list formatting shared by every violation message. */

/**
 * Formats a number with at most `digits` decimals, dropping trailing zeros: 11.40 -> "11.4".
 * Non-finite values print as "n/a" so a message never says "NaN".
 */
export function num(value: number, digits = 1): string {
    if (!Number.isFinite(value)) {
        return "n/a";
    }
    const fixed = value.toFixed(digits);
    return fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
}

/**
 * Formats a fraction (0..1) as a percentage with enough precision to tell small rates apart:
 * 0.00012 -> "0.012%", 0.177 -> "17.7%".
 */
export function pct(fraction: number): string {
    const p = fraction * 100;
    if (!Number.isFinite(p)) {
        return "n/a";
    }
    if (p === 0) {
        return "0%";
    }
    const digits = p >= 10 ? 1 : p >= 1 ? 2 : p >= 0.01 ? 3 : 4;
    const shown = num(p, digits);
    return shown === "0" ? "<0.0001%" : `${shown}%`;
}

/** Formats seconds as "35 s", "48 min", "1 h 20 min". */
export function duration(seconds: number): string {
    if (!Number.isFinite(seconds)) {
        return "n/a";
    }
    if (seconds < 120) {
        return `${num(seconds, seconds < 10 ? 1 : 0)} s`;
    }
    const minutes = Math.round(seconds / 60);
    if (minutes < 120) {
        return `${minutes} min`;
    }
    return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * Names for a message: sorted, at most `max` of them, then "and N more" (a lock fed by 51 zones
 * would otherwise list all 51 in one basis line).
 */
export function cappedList(items: readonly string[], max = 5, sort = true): string {
    const sorted = sort ? [...items].sort() : items;
    return sorted.length <= max ? sorted.join(", ") : `${sorted.slice(0, max).join(", ")} and ${sorted.length - max} more`;
}

/** Joins labels, showing at most `max` and counting the rest: `a, b and 3 more`. */
export function listLabels(labels: readonly string[], max = 8): string {
    if (labels.length <= max) {
        return labels.length <= 1 ? (labels[0] ?? "") : `${labels.slice(0, -1).join(", ")} and ${labels[labels.length - 1]}`;
    }
    return `${labels.slice(0, max).join(", ")} and ${labels.length - max} more`;
}

/** "1 Delivery Controller" / "2 Delivery Controllers". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
    return `${count} ${count === 1 ? singular : pluralForm}`;
}

/**
 * Formats `value` against a threshold with enough decimals that the two never print the same
 * when they differ ("12.03 s is above the 12 s target", not "12 s is above the 12 s target").
 */
export function numVs(value: number, threshold: number, digits = 1): string {
    let d = digits;
    while (d < 4 && value !== threshold && num(value, d) === num(threshold, d)) {
        d += 1;
    }
    return num(value, d);
}
