import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { predictXenShares, XenShareGuest } from "../../model/xenShares";

const RUNS = { numRuns: 400 };
// Float slack for sums of up to ~20 terms.
const SLACK = 1e-9;

const amount = fc.option(fc.double({ min: 0, max: 2000, noNaN: true }), { nil: undefined });
const guest = fc.record({
    domain: fc.constantFrom<"dom0" | "domU">("dom0", "domU", "domU"),
    demandMBps: amount,
    capMBps: amount,
});
const guests = fc.array(guest, { maxLength: 20 }).map((list) => list.map((g, i): XenShareGuest => ({ name: `g${i}`, ...g })));
const link = fc.double({ min: 0.01, max: 5000, noNaN: true });
const share = fc.double({ min: 0, max: 1, noNaN: true });

describe("predictXenShares properties", () => {
    it("all shares are finite and >= 0, and never exceed the link in total", () => {
        fc.assert(
            fc.property(link, share, guests, (l, s, list) => {
                const out = predictXenShares({ linkMBps: l, dom0Share: s, guests: list });
                expect(out).toHaveLength(list.length);
                let total = 0;
                for (const x of out) {
                    expect(Number.isFinite(x.MBps)).toBe(true);
                    expect(x.MBps).toBeGreaterThanOrEqual(0);
                    total += x.MBps;
                }
                expect(total).toBeLessThanOrEqual(l * (1 + SLACK));
            }),
            RUNS,
        );
    });

    it("no share exceeds its demand or its cap", () => {
        fc.assert(
            fc.property(link, share, guests, (l, s, list) => {
                const out = predictXenShares({ linkMBps: l, dom0Share: s, guests: list });
                out.forEach((x, i) => {
                    expect(x.MBps).toBeLessThanOrEqual((list[i].demandMBps ?? Infinity) * (1 + SLACK) + SLACK);
                    expect(x.MBps).toBeLessThanOrEqual((list[i].capMBps ?? Infinity) * (1 + SLACK) + SLACK);
                });
            }),
            RUNS,
        );
    });

    it("entries of the same domain with equal demand and cap get equal shares", () => {
        fc.assert(
            fc.property(link, share, guests, guest, fc.integer({ min: 2, max: 5 }), (l, s, list, twin, copies) => {
                const twins = Array.from({ length: copies }, (_, k): XenShareGuest => ({ name: `twin${k}`, ...twin }));
                const out = predictXenShares({ linkMBps: l, dom0Share: s, guests: [...list, ...twins] });
                const shares = out.slice(list.length).map((x) => x.MBps);
                for (const x of shares) {
                    expect(x).toBe(shares[0]);
                }
            }),
            RUNS,
        );
    });

    it("the link is used fully when the demands exceed it (work conserving)", () => {
        fc.assert(
            fc.property(link, share, guests, (l, s, list) => {
                const out = predictXenShares({ linkMBps: l, dom0Share: s, guests: list });
                const wanted = list.reduce((t, g) => t + Math.min(g.demandMBps ?? Infinity, g.capMBps ?? Infinity), 0);
                const total = out.reduce((t, x) => t + x.MBps, 0);
                expect(total).toBeGreaterThanOrEqual(Math.min(wanted, l) * (1 - 1e-7) - SLACK);
            }),
            RUNS,
        );
    });

    it("while dom0 wants at least dom0Share of the link, it gets at least that much", () => {
        fc.assert(
            fc.property(link, share, guests, (l, s, list) => {
                const withDom0: XenShareGuest[] = [{ name: "dom0", domain: "dom0" }, ...list.filter((g) => g.domain === "domU")];
                const out = predictXenShares({ linkMBps: l, dom0Share: s, guests: withDom0 });
                expect(out[0].MBps).toBeGreaterThanOrEqual(s * l * (1 - SLACK));
            }),
            RUNS,
        );
    });
});
