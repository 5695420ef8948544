/**
 * The fixes of an SE group that does not fit: a larger SE (scale-up), more SEs per VS (scale-out,
 * with BGP/ECMP when ingress binds), another HA mode, or a placement that moves VSs apart; each
 * judged by placeGroup (sePlacement.ts) on the same figures, the fewest change first.
 */
import { DEFAULT_ALGO, DEFAULT_MAX_VS_PER_SE, PROVIDER_RANGES, SeGroupSpec } from "./seCapacity";
import { SE_MEMORY_MIN_GB, testedSeSize } from "./seTable";
import { allowed, EPSILON, GroupPlacement, MEASURED_VCPUS_MAX, PlacedUnit, placeGroup, placementFits } from "./sePlacement";

/** Options of {@link placementFixes}. */
export interface FixOptions {
    readonly headroomPct: number;
    readonly assumeScaleOut?: boolean;
}

/** The units with BGP/ECMP scale-out on every VS (scaleoutEcmp true): ingress spreads too. */
function withEcmp(units: readonly PlacedUnit[]): PlacedUnit[] {
    return units.map((u) => u.map((d) => ({ ...d, scaleoutEcmp: true })));
}

/** One way to make a group fit: the whole new spec (unchanged fields kept). */
export interface PlacementFix {
    readonly spec: SeGroupSpec;
    /**
     * "placement": distributed placement or fewer VSs per SE at the same size and SEs per VS; "up": a
     * larger SE; "out": more SEs per VS (and fewer VSs per SE); "mode": another HA mode (N+M, with scale-out).
     */
    readonly kind: "placement" | "up" | "out" | "mode";
    /** The fit needs scaleoutEcmp "true" on the VSs: their ingress is what binds, and only BGP/ECMP spreads it. */
    readonly ecmp: boolean;
    /** False when the fit rests on figures extrapolated beyond the 6 vCPU row (not measured). */
    readonly measured: boolean;
    readonly placement: GroupPlacement;
}

function fitsWith(units: readonly PlacedUnit[], spec: SeGroupSpec, options: FixOptions): GroupPlacement | undefined {
    const p = placeGroup(units, spec, { assumeScaleOut: options.assumeScaleOut });
    return placementFits(p, options.headroomPct) ? p : undefined;
}

/** memoryPerSe (MB) at `vcpus` that carries the open connections of the placement (never lowered, within range). */
function memoryFor(units: readonly PlacedUnit[], spec: SeGroupSpec, vcpus: number, options: FixOptions): number {
    const tested =
        vcpus === spec.vcpusPerSe ? spec.memoryPerSeMb : Math.max(spec.memoryPerSeMb, Math.max(testedSeSize(vcpus).memoryGb, SE_MEMORY_MIN_GB) * 1024);
    const rowGb = testedSeSize(vcpus).memoryGb;
    // Open connections at the row's own memory (factor 1), then the memory that brings them within the limit.
    const atRow = placeGroup(units, { ...spec, vcpusPerSe: vcpus, memoryPerSeMb: rowGb * 1024 }, { assumeScaleOut: options.assumeScaleOut });
    const worst = Math.max(atRow.worstSe.openConnections, ...atRow.perVs.map((u) => u.openConnections));
    const needed = Math.ceil((worst / allowed(options.headroomPct)) * rowGb * 1024 - EPSILON);
    return Math.max(tested, needed, PROVIDER_RANGES.memoryPerSeMb.min);
}

/** Scale-up: the smallest vcpusPerSe in [from, to] (memory raised as needed) that fits. */
function scaleUp(units: readonly PlacedUnit[], spec: SeGroupSpec, from: number, to: number, options: FixOptions): PlacementFix | undefined {
    const at = (v: number): PlacementFix | undefined => {
        const memory = memoryFor(units, spec, v, options);
        if (memory > PROVIDER_RANGES.memoryPerSeMb.max || (v === spec.vcpusPerSe && memory === spec.memoryPerSeMb)) {
            return undefined;
        }
        const candidate = { ...spec, vcpusPerSe: v, memoryPerSeMb: memory };
        const placement = fitsWith(units, candidate, options);
        return placement ? { spec: candidate, kind: "up", measured: v <= MEASURED_VCPUS_MAX, ecmp: false, placement } : undefined;
    };
    // Capacity never falls with vcpusPerSe (seCapacity is monotone), so the fewest that fit is found by bisection.
    return fewestFitting(from, to, at);
}

/**
 * The fix at the smallest n in [lo, hi] for which `at` finds one, by bisection: `at` must be
 * monotone (none below some n, one from it on). Undefined when none in the range fits.
 */
function fewestFitting<T>(lo: number, hi: number, at: (n: number) => T | undefined): T | undefined {
    let best: T | undefined;
    while (lo <= hi) {
        const n = Math.floor((lo + hi) / 2);
        const fix = at(n);
        if (fix) {
            best = fix;
            hi = n - 1;
        } else {
            lo = n + 1;
        }
    }
    return best;
}

/** maxVsPerSe values to try under packed placement: the current one, then halved down to 1. */
function maxVsPerSeSteps(current: number): number[] {
    const steps = [current];
    for (let m = Math.floor(current / 2); m >= 1; m = Math.floor(m / 2)) {
        steps.push(m);
    }
    if (steps[steps.length - 1] !== 1) {
        steps.push(1);
    }
    return steps;
}

/**
 * Scale-out at `vcpus` (N+M or active/active, `haMode` as given): the fewest SEs per VS from the
 * current count up to 64 (the documented range) and, under packed placement, the most VSs per SE
 * that fit; maxSe raised to the SEs the placements need plus bufferSe (at most 1000).
 */
function scaleOut(units: readonly PlacedUnit[], spec: SeGroupSpec, vcpus: number, options: FixOptions): PlacementFix | undefined {
    // Native scale-out spreads CPU work and egress only; ingress-bound load needs BGP/ECMP too.
    const native = scaleOutWith(units, spec, vcpus, options);
    if (native) {
        return native;
    }
    const ecmp = scaleOutWith(withEcmp(units), spec, vcpus, options);
    return ecmp ? { ...ecmp, ecmp: true } : undefined;
}

function scaleOutWith(units: readonly PlacedUnit[], spec: SeGroupSpec, vcpus: number, options: FixOptions): PlacementFix | undefined {
    const memory = memoryFor(units, spec, vcpus, options);
    if (memory > PROVIDER_RANGES.memoryPerSeMb.max) {
        return undefined;
    }
    const field = options.assumeScaleOut ? "maxScaleoutPerVs" : "minScaleoutPerVs";
    const currentVsPerSe = spec.maxVsPerSe ?? DEFAULT_MAX_VS_PER_SE;
    const steps = (spec.algo ?? DEFAULT_ALGO) === "PLACEMENT_ALGO_PACKED" ? maxVsPerSeSteps(currentVsPerSe) : [currentVsPerSe];
    for (const maxVsPerSe of steps) {
        const candidateAt = (k: number): SeGroupSpec | undefined => {
            const scaled: SeGroupSpec = {
                ...spec,
                vcpusPerSe: vcpus,
                memoryPerSeMb: memory,
                maxVsPerSe: spec.maxVsPerSe === undefined && maxVsPerSe === DEFAULT_MAX_VS_PER_SE ? undefined : maxVsPerSe,
                minScaleoutPerVs: field === "minScaleoutPerVs" ? k : spec.minScaleoutPerVs,
                maxScaleoutPerVs: Math.max(spec.maxScaleoutPerVs, k),
            };
            // SEs the placements need (as placeGroup counts them), plus the N+M buffer.
            const perVs = scaled.haMode === "HA_MODE_SHARED_PAIR" ? Math.max(k, 2) : k;
            const needed = units.length === 0 ? 0 : Math.max(perVs, Math.ceil((units.length * perVs) / maxVsPerSe));
            const maxSe = Math.max(spec.maxSe, needed + (scaled.haMode === "HA_MODE_SHARED" ? spec.bufferSe : 0));
            return maxSe > PROVIDER_RANGES.maxSe.max ? undefined : { ...scaled, maxSe };
        };
        // More SEs per VS only lower each share (and the busiest SE's load): search the fewest that fit.
        let lo = Math.max(spec[field], 1);
        let hi = PROVIDER_RANGES.scaleoutPerVs.max;
        let best: { spec: SeGroupSpec; placement: GroupPlacement } | undefined;
        while (lo <= hi) {
            const k = Math.floor((lo + hi) / 2);
            const candidate = candidateAt(k);
            if (!candidate) {
                hi = k - 1; // more SEs than maxSe allows: fewer per VS, or none fits
                continue;
            }
            const placement = fitsWith(units, candidate, options);
            if (placement) {
                best = { spec: candidate, placement };
                hi = k - 1;
            } else {
                lo = k + 1;
            }
        }
        if (best) {
            return {
                spec: best.spec,
                kind: spec.haMode === best.spec.haMode ? "out" : "mode",
                measured: vcpus <= MEASURED_VCPUS_MAX,
                ecmp: false,
                placement: best.placement,
            };
        }
    }
    return undefined;
}

/**
 * algo PLACEMENT_ALGO_DISTRIBUTED, judged on the same whole-VS placement as any distributed group,
 * at the current maxSe or else the fewest maxSe (up to one SE per placement plus the reserve, at
 * most 1000) at which it fits; undefined when none does.
 */
function distributedFix(units: readonly PlacedUnit[], spec: SeGroupSpec, options: FixOptions): Omit<PlacementFix, "measured"> | undefined {
    const distributed: SeGroupSpec = { ...spec, algo: "PLACEMENT_ALGO_DISTRIBUTED" };
    const at = (maxSe: number) => {
        const candidate = { ...distributed, maxSe };
        const placement = fitsWith(units, candidate, options);
        return placement ? { spec: candidate, kind: "placement" as const, ecmp: false, placement } : undefined;
    };
    const current = at(spec.maxSe);
    if (current) {
        return current;
    }
    // More SEs than placements add nothing: each SE then holds at most one share.
    const perVs = Math.max(options.assumeScaleOut ? spec.maxScaleoutPerVs : spec.minScaleoutPerVs, spec.haMode === "HA_MODE_SHARED_PAIR" ? 2 : 1);
    const reserve = spec.haMode === "HA_MODE_SHARED_PAIR" ? 1 : spec.bufferSe;
    // The busiest SE's load does not rise with more SEs to place on: the fewest that fit, by bisection.
    return fewestFitting(spec.maxSe + 1, Math.min(PROVIDER_RANGES.maxSe.max, units.length * perVs + reserve), at);
}

/**
 * Under packed placement, the changes that move VSs apart without a larger SE or more SEs per VS,
 * on the same figures: algo PLACEMENT_ALGO_DISTRIBUTED (whole VSs on the least-loaded SEs the group
 * may run: an N+M group of three 50% VSs packed on one SE at 150% carries 50% per SE on three; maxSe
 * raised when it needs more SEs: distributedFix), and the
 * largest maxVsPerSe below the current one that fits (maxSe raised to the SEs the placements then
 * need, plus the N+M buffer). Legacy active/standby runs its two SEs whatever these say: none.
 */
function placementOnly(units: readonly PlacedUnit[], spec: SeGroupSpec, options: FixOptions): PlacementFix[] {
    if ((spec.algo ?? DEFAULT_ALGO) !== "PLACEMENT_ALGO_PACKED" || spec.haMode === "HA_MODE_LEGACY_ACTIVE_STANDBY" || units.length === 0) {
        return [];
    }
    const out: PlacementFix[] = [];
    const measured = spec.vcpusPerSe <= MEASURED_VCPUS_MAX;
    const spread = distributedFix(units, spec, options);
    if (spread) {
        out.push({ ...spread, measured });
    }
    // Fewer VSs per SE only lowers the busiest SE's load: the largest that fits, by bisection.
    const candidateAt = (m: number): SeGroupSpec | undefined => {
        const withM = { ...spec, maxVsPerSe: m };
        const maxSe = Math.max(spec.maxSe, maxSeFloor(units, withM, options));
        return maxSe > PROVIDER_RANGES.maxSe.max ? undefined : { ...withM, maxSe };
    };
    let lo = 1;
    let hi = (spec.maxVsPerSe ?? DEFAULT_MAX_VS_PER_SE) - 1;
    let best: PlacementFix | undefined;
    while (lo <= hi) {
        const m = Math.floor((lo + hi) / 2);
        const candidate = candidateAt(m);
        const placement = candidate ? fitsWith(units, candidate, options) : undefined;
        if (candidate && placement) {
            best = { spec: candidate, kind: "placement", measured, ecmp: false, placement };
            lo = m + 1;
        } else if (!candidate) {
            lo = m + 1; // too many SEs at this few per SE: more per SE
        } else {
            hi = m - 1;
        }
    }
    return best ? [...out, best] : out;
}

/**
 * The fewest maxSe that places the units as the spec asks: the SEs the placements need at
 * maxVsPerSe (at least the SEs per VS; two in active/active), plus bufferSe in N+M; at least 1.
 * Legacy active/standby runs its two SEs whatever maxSe says: its spec's maxSe is kept.
 */
export function maxSeFloor(units: readonly PlacedUnit[], spec: SeGroupSpec, options: Pick<FixOptions, "assumeScaleOut"> = {}): number {
    if (spec.haMode === "HA_MODE_LEGACY_ACTIVE_STANDBY" || units.length === 0) {
        return spec.maxSe;
    }
    const base = options.assumeScaleOut ? spec.maxScaleoutPerVs : spec.minScaleoutPerVs;
    const perVs = spec.haMode === "HA_MODE_SHARED_PAIR" ? Math.max(base, 2) : base;
    const maxVsPerSe = spec.maxVsPerSe ?? DEFAULT_MAX_VS_PER_SE;
    const needed = Math.max(perVs, Math.ceil((units.length * perVs) / maxVsPerSe));
    return Math.max(1, needed + (spec.haMode === "HA_MODE_SHARED" ? spec.bufferSe : 0));
}

/**
 * Ways to make a group fit every VS placed on it and its busiest SE, each a whole spec within the
 * provider's documented ranges that passes placeGroup, preferred first:
 * - under packed placement, distributed placement, then fewer VSs per SE (placementOnly);
 * - a larger SE within the measured rows (up to 6 vCPUs);
 * - more SEs per VS at a measured size (the current one or the smallest larger measured one that
 *   fits; 6 vCPUs for an SE beyond the measured rows), with scaleoutEcmp on the VSs when their
 *   ingress binds (native scale-out does not spread it); in legacy active/standby, which has no
 *   scale-out, HA_MODE_SHARED (N+M, not in the Essentials/Basic editions) with scale-out.
 *   distributeLoadActiveStandby is never a fix: after a failover one SE carries every VS anyway;
 * - a larger SE beyond 6 vCPUs (extrapolated, not measured), only when no measured larger SE fits.
 * @returns the fixes; empty when the group fits or when nothing within the ranges fits.
 */
export function placementFixes(units: readonly PlacedUnit[], given: SeGroupSpec, options: FixOptions): PlacementFix[] {
    if (fitsWith(units, given, options)) {
        return [];
    }
    // A maxSe below the SEs the placements need (maxSe "0" runs none) is itself the cause: every
    // option raises it to that many (plus the N+M buffer), and raising it alone comes first when
    // it is enough. No option ever has maxSe below 1.
    const floor = maxSeFloor(units, given, options);
    const spec = floor > given.maxSe && floor <= PROVIDER_RANGES.maxSe.max ? { ...given, maxSe: floor } : given;
    if (spec !== given) {
        const placement = fitsWith(units, spec, options);
        if (placement) {
            return [{ spec, kind: "out", measured: spec.vcpusPerSe <= MEASURED_VCPUS_MAX, ecmp: false, placement }];
        }
    }
    // The cheapest change first: where the VSs go, on the same SE size and SEs per VS.
    const out: PlacementFix[] = placementOnly(units, spec, options);
    const upMeasured = spec.vcpusPerSe <= MEASURED_VCPUS_MAX ? scaleUp(units, spec, spec.vcpusPerSe, MEASURED_VCPUS_MAX, options) : undefined;
    if (upMeasured) {
        out.push(upMeasured);
    }
    const at = Math.min(spec.vcpusPerSe, MEASURED_VCPUS_MAX);
    if (spec.haMode === "HA_MODE_LEGACY_ACTIVE_STANDBY") {
        // Legacy HA has no buffer (its bufferSe is often "0"): N+M needs at least one spare SE to
        // survive an SE failure, so the option keeps bufferSe >= 1 and maxSe counts it.
        const shared = scaleOut(
            units,
            { ...spec, haMode: "HA_MODE_SHARED", bufferSe: Math.max(spec.bufferSe, 1), maxSe: Math.max(spec.maxSe, 2) },
            at,
            options,
        );
        if (shared) {
            out.push({ ...shared, kind: "mode" });
        }
    } else {
        // More SEs per VS at the current size, else at the smallest larger measured size that fits.
        for (let v = at; v <= MEASURED_VCPUS_MAX; v++) {
            const wider = scaleOut(units, spec, v, options);
            if (wider) {
                out.push(wider);
                break;
            }
        }
    }
    if (!upMeasured) {
        const upExtrapolated = scaleUp(units, spec, Math.max(spec.vcpusPerSe, MEASURED_VCPUS_MAX + 1), PROVIDER_RANGES.vcpusPerSe.max, options);
        if (upExtrapolated) {
            out.push(upExtrapolated);
        }
    }
    return out;
}
