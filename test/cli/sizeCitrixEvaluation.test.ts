/**
 * Figures are computed once: every figure `perfguard size citrix` prints equals the figure the
 * Citrix evaluation gives (through citrixFigures, what `check --report` and `diff` print, and the
 * policies' verdicts) on a stack a user would declare for the same inputs. The stacks here are
 * written independently of cli/citrixSizingSite.ts: the concentrated storm is a group with a
 * peak far above the throttles, which cap it (first come, first served).
 */
import { describe, expect, it } from "vitest";
import { sizeCitrix, CitrixSizingInput } from "../../cli/sizeCitrix";
import { CITRIX_GUIDANCE } from "../../model/citrixGuidance";
import { citrixBrokerThrottle } from "../../policies/citrix/citrix-broker-throttle";
import { citrixEvaluation, citrixFigures } from "../../policies/citrix/evaluation";
import type { EntityFigures } from "../../policies/pack/figures";
import { ResourceView, StackView } from "../../policies/pack/resources";
import { runStackPolicy, TestResource, urnOf } from "../support/policyHarness";

const ZONE = "citrix:index/zone:Zone";
const CATALOG = "citrix:index/machineCatalog:MachineCatalog";
const GROUP = "citrix:index/deliveryGroup:DeliveryGroup";
const VM = "vsphere:index/virtualMachine:VirtualMachine";

interface Case {
    rttMs: number;
    groups: number;
    controllers: number;
    machines?: number[];
    peaks?: number[];
}

function meta(f: Record<string, number | undefined>): Array<{ name: string; value: string }> {
    return Object.entries(f)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => ({ name: `perfguard:${k}`, value: String(v) }));
}

/** Zone "branch" with `controllers` controllers (throttled at `throttle` each when given) and one catalog + group per group. */
function stack(
    c: Case,
    o: { throttle?: number; zone?: Record<string, number | undefined>; group?: (i: number) => Record<string, number | undefined> },
): TestResource[] {
    const machines = c.machines ?? Array.from({ length: c.groups }, () => 40);
    return [
        { type: ZONE, name: "branch-zone", props: { name: "branch", metadatas: meta({ rttMs: c.rttMs, ...(o.zone ?? {}) }) } },
        ...Array.from({ length: c.controllers }, (_, i): TestResource => ({
            type: VM,
            name: `ddc-${i + 1}`,
            props: {
                extraConfig: {
                    "guestinfo.perfguard.citrixRole": "deliveryController",
                    "guestinfo.perfguard.citrixZone": "branch",
                    ...(o.throttle === undefined ? {} : { "guestinfo.perfguard.throttleMaxConcurrentTransactions": String(o.throttle) }),
                },
            },
        })),
        ...machines.flatMap((m, i): TestResource[] => [
            {
                type: CATALOG,
                name: `cat-${i + 1}`,
                props: { provisioningScheme: { numberOfTotalMachines: m } },
                propertyDependencies: { zone: ["branch-zone"] },
            },
            {
                type: GROUP,
                name: `dg-${i + 1}`,
                props: { associatedMachineCatalogs: [{ machineCount: m }], metadatas: meta(o.group?.(i) ?? {}) },
                propertyDependencies: { associatedMachineCatalogs: [`cat-${i + 1}`] },
            },
        ]),
    ];
}

function view(resources: TestResource[]): StackView {
    const urns = new Map(resources.map((r) => [r.name, urnOf(r.type, r.name)]));
    return new StackView(
        resources.map(
            (r) =>
                new ResourceView(
                    urns.get(r.name)!,
                    r.type,
                    r.name,
                    r.props,
                    Object.fromEntries(Object.entries(r.propertyDependencies ?? {}).map(([p, names]) => [p, names.map((n) => urns.get(n)!)])),
                ),
        ),
    );
}

/** A figure's value; Infinity where it reads "never" (a launch time when nothing succeeds). */
function figure(entities: EntityFigures[], id: string, key: string): number | undefined {
    const f = entities.find((e) => e.id === id)?.figures.find((x) => x.key === key);
    return f?.text === "never" ? Number.POSITIVE_INFINITY : f?.value;
}

const USERS = 6000;
const input = (c: Case): CitrixSizingInput => ({
    rttMs: c.rttMs,
    users: USERS,
    controllers: c.controllers,
    targetResponseS: 12,
    errorBudgetPct: 0.1,
    from: 12,
    to: 60,
    step: 12,
    deliveryGroups: c.groups,
    ...(c.machines ? { groupMachines: c.machines } : {}),
    ...(c.peaks ? { groupPeaks: c.peaks } : {}),
});

const CASES: Case[] = [
    { rttMs: 10, groups: 1, controllers: 2 },
    { rttMs: 10, groups: 4, controllers: 2 },
    { rttMs: 45, groups: 2, controllers: 3 },
    { rttMs: 90, groups: 4, controllers: 2, machines: [300, 100, 50, 50] },
    { rttMs: 160, groups: 1, controllers: 2 },
    { rttMs: 160, groups: 4, controllers: 2 },
    { rttMs: 160, groups: 4, controllers: 2, peaks: [10, 10, 10, 40] },
    { rttMs: 200, groups: 3, controllers: 4 },
    { rttMs: 260, groups: 2, controllers: 2 },
];

describe("size citrix's figures equal the Citrix evaluation's on the same Site", () => {
    it.each(
        CASES.map(
            (c) =>
                [
                    `${c.rttMs} ms, ${c.groups} group(s), ${c.controllers} controllers${c.machines ? `, machines ${c.machines.join("/")}` : ""}${c.peaks ? `, peaks ${c.peaks.join("/")}` : ""}`,
                    c,
                ] as const,
        ),
    )(
        "%s",
        async (_name, c) => {
            const s = sizeCitrix(input(c));
            const peakOf = (i: number) => (c.peaks ? { peakConcurrentLaunches: c.peaks[i] } : {});

            // The Site as declared: the most exposed lock's safe concurrency and the proposed throttle.
            const declared = citrixFigures(view(stack(c, { group: peakOf })));
            expect(s.maxSafeConcurrency).toBe(figure(declared, "branch-zone", "lockLimit"));
            expect(s.throttlePerController).toBe(Math.max(1, figure(declared, "branch-zone", "perController") ?? 0));
            s.groups.forEach((g, i) => expect(g.maxSafeConcurrency, `dg-${i + 1}`).toBe(figure(declared, `dg-${i + 1}`, "safe")));

            // Each row: one group's storm at that concurrency, the other groups idle.
            for (const row of s.rows) {
                const one = citrixFigures(
                    view(
                        stack(c, {
                            group: (i) => (i === 0 ? { peakConcurrentLaunches: row.concurrency, users: USERS } : { peakConcurrentLaunches: 0, users: 0 }),
                        }),
                    ),
                );
                expect([row.meanResponseS, row.errorRate * 100, row.brokeredPerS, row.launchTimeS], `row ${row.concurrency}`).toEqual(
                    ["meanResponseS", "timedOutPct", "brokeredPerS", "launchTimeS"].map((k) => figure(one, "dg-1", k)),
                );
            }

            if (s.throttlePerController === 0) {
                return;
            }
            const total = s.throttlePerController * s.brokeringControllers;
            const atThrottle = { ...c, controllers: s.brokeringControllers };
            // At the throttle: one group takes every controller's throttle (its storm far above them),
            // or its own peak where the groups declare theirs.
            const storm = c.peaks ? c.peaks.indexOf(Math.max(...c.peaks)) : 0;
            const concentrated = stack(atThrottle, {
                throttle: s.throttlePerController,
                group: (i) => (i === storm ? { peakConcurrentLaunches: c.peaks ? c.peaks[i] : 1000, users: USERS } : { peakConcurrentLaunches: 0, users: 0 }),
            });
            const at = citrixFigures(view(concentrated));
            const id = `dg-${storm + 1}`;
            expect(s.atThrottle?.concurrency).toBe(figure(at, id, "concurrency"));
            expect([s.atThrottle?.meanResponseS, (s.atThrottle?.errorRate ?? NaN) * 100, s.atThrottle?.brokeredPerS, s.atThrottle?.launchTimeS]).toEqual(
                ["meanResponseS", "timedOutPct", "brokeredPerS", "launchTimeS"].map((k) => figure(at, id, k)),
            );

            // The proposal passes citrix-broker-throttle on the declared Site, and never lets one lock
            // receive more than it sustains: throttle x controllers within the safe concurrency.
            const declaredThrottled = stack(atThrottle, { throttle: s.throttlePerController, group: peakOf });
            expect(await runStackPolicy(citrixBrokerThrottle, declaredThrottled)).toEqual([]);
            expect(total).toBeLessThanOrEqual(s.maxSafeConcurrency);
            const exposures = citrixEvaluation(view(declaredThrottled)).groups.map((g) => g.exposure?.value);
            expect(s.groups.map((g) => g.exposure)).toEqual(exposures);
            if ((s.throttlePerController + 1) * s.brokeringControllers > s.maxSafeConcurrency && !c.peaks) {
                expect(await runStackPolicy(citrixBrokerThrottle, stack(atThrottle, { throttle: s.throttlePerController + 1 }))).not.toEqual([]);
            }

            // Every group at once (labelled, not judged): the zone's peak split by machines, or each group's own peak.
            if (c.groups > 1) {
                const allStack = view(
                    stack(
                        atThrottle,
                        c.peaks
                            ? { throttle: s.throttlePerController, zone: { users: USERS }, group: peakOf }
                            : { throttle: s.throttlePerController, zone: { peakConcurrentLaunches: total, users: USERS } },
                    ),
                );
                const all = citrixFigures(allStack);
                const ids = Array.from({ length: c.groups }, (_, i) => `dg-${i + 1}`);
                expect(s.allGroups?.brokeredPerS).toBe(figure(all, "site", "brokeredPerS"));
                // The expected (even-split) prediction: the figures show the judged first-come storm on one lock.
                const expected = citrixEvaluation(allStack)
                    .groups.filter((g) => ids.includes(g.group.resource.name))
                    .map((g) => g.prediction?.worstMeanResponseS ?? -1);
                expect(s.allGroups?.meanResponseS).toBe(Math.max(...expected));
                expect(s.allGroups?.launchTimeS).toBe(Math.max(...ids.map((g) => figure(all, g, "launchTimeS") ?? -1)));
            } else {
                expect(s.allGroups).toBeUndefined();
            }
        },
        120_000,
    );

    it("160 ms, four groups: one lock can receive every controller's throttle, so the total stays within what one lock sustains", () => {
        for (const controllers of [1, 2, 3, 4, 6]) {
            const s = sizeCitrix(input({ rttMs: 160, groups: 4, controllers }));
            expect(s.throttlePerController * s.brokeringControllers, `${controllers} controllers`).toBeLessThanOrEqual(s.maxSafeConcurrency);
        }
        // The default two controllers: 12 each, 24 in all, the source's advice at 160 ms on one lock.
        const two = sizeCitrix(input({ rttMs: 160, groups: 4, controllers: 2 }));
        expect(two.throttlePerController).toBe(12);
        expect(two.throttlePerController * 2).toBeLessThanOrEqual(CITRIX_GUIDANCE.at160msMaxConcurrent);
    });
});
