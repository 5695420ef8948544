/**
 * How many machines a Citrix machine catalog holds (numberOfTotalMachines of an MCS scheme, else
 * its listed machine accounts), and how a Delivery Group's machine counts are given to catalogs
 * when a preview does not say which count is whose (citrix/terraform-provider-citrix:
 * machine_catalog, delivery_group associated_machine_catalogs).
 */
import type { ResourceView } from "../pack/resources";
import { field, isUnknown, parsePlainDecimal, UNKNOWN } from "../pack/values";

/** A catalog's machine count: a number, unknown (preview), or not declared. */
export type MachineCount = number | "unknown" | "none";

/** A catalog's own machine count. */
export function machinesOf(catalog: ResourceView): MachineCount {
    const scheme = field(catalog.props, "provisioningScheme");
    if (scheme === UNKNOWN) {
        return "unknown";
    }
    const total = field(scheme, "numberOfTotalMachines");
    if (total === UNKNOWN) {
        return "unknown";
    }
    const n = parsePlainDecimal(total);
    if (n !== undefined && n >= 0) {
        return Math.floor(n);
    }
    // Manual (non-MCS) catalogs list their machines under machineAccounts[].machines[].
    const accounts = field(catalog.props, "machineAccounts");
    if (accounts === UNKNOWN) {
        return "unknown";
    }
    if (!Array.isArray(accounts)) {
        return "none";
    }
    let count = 0;
    for (const account of accounts) {
        const machines = field(account, "machines");
        if (machines === UNKNOWN || isUnknown(account)) {
            return "unknown";
        }
        count += Array.isArray(machines) ? machines.length : 0;
    }
    return count;
}

/**
 * The machines of catalogs whose entry in associatedMachineCatalogs cannot be told (a preview: the
 * refs are unknown, and a property dependency does not say which count is whose), from what is
 * known, in this order: one catalog left takes the counts' sum; counts that equal the catalogs' own
 * numberOfTotalMachines one to one are theirs; else each catalog's own size, capped at the counts'
 * sum; an even split of the sum only for a catalog whose own size is not known (`even`). Without
 * known counts, each catalog's own size (1 when that is not known either).
 */
export function unpairedMachines(
    catalogs: readonly ResourceView[],
    counts: ReadonlyArray<number | undefined>,
): { machines: Array<{ catalog: ResourceView; machines: number }>; even: boolean } {
    const own = catalogs.map((catalog) => ({ catalog, size: machinesOf(catalog) }));
    const known = counts.every((c): c is number => c !== undefined);
    if (!known) {
        return { machines: own.map(({ catalog, size }) => ({ catalog, machines: typeof size === "number" ? size : 1 })), even: false };
    }
    const total = (counts as number[]).reduce((sum, c) => sum + c, 0);
    if (catalogs.length === 1) {
        return { machines: [{ catalog: catalogs[0], machines: total }], even: false };
    }
    const sizes = own.map((o) => o.size);
    const byValue = (a: number, b: number) => a - b;
    const matched =
        sizes.every((n): n is number => typeof n === "number") &&
        counts.length === sizes.length &&
        JSON.stringify([...sizes].sort(byValue)) === JSON.stringify([...(counts as number[])].sort(byValue));
    if (matched) {
        return { machines: own.map(({ catalog, size }) => ({ catalog, machines: size as number })), even: false };
    }
    const unsized = own.filter((o) => typeof o.size !== "number").length;
    return {
        machines: own.map(({ catalog, size }) => ({ catalog, machines: typeof size === "number" ? Math.min(size, total) : total / catalogs.length })),
        even: unsized > 0,
    };
}
