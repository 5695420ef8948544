import { describe, expect, it } from "vitest";
import data from "../../model/data/xen-network.json";
import { predictXenShares, SOURCE_LINK_MBPS, XenShare } from "../../model/xenShares";

const LINK = 11.1;

function byName(shares: XenShare[]): Record<string, number> {
    return Object.fromEntries(shares.map((s) => [s.name, s.MBps]));
}

function scenario(name: string): Record<string, unknown> {
    const found = data.scenarios.find((s) => s.name === name);
    if (!found) {
        throw new Error(`scenario ${name} missing from xen-network.json`);
    }
    return found;
}

/** Within 10% of the measured value. */
function expectNear(predicted: number, measured: number): void {
    expect(Math.abs(predicted - measured) / measured).toBeLessThanOrEqual(0.1);
}

describe("predictXenShares reproduces the source's scenarios (link 11.1 MB/s)", () => {
    it("keeps the project's copy of the data with its source and notes", () => {
        expect(data.source).toMatch(/xen-dom0-domU-network\.ja\.txt/);
        expect(data.notes.length).toBeGreaterThan(0);
        expect(SOURCE_LINK_MBPS).toBe(LINK);
    });

    it("two domUs alone split the link evenly", () => {
        const measured = scenario("two domUs").overlapMeanMBps as Record<string, number>;
        const p = byName(
            predictXenShares({
                linkMBps: LINK,
                guests: [
                    { name: "domU1", domain: "domU" },
                    { name: "domU2", domain: "domU" },
                ],
            }),
        );
        expect(p.domU1).toBeCloseTo(5.55, 10);
        expectNear(p.domU1, measured.domU1);
        expectNear(p.domU2, measured.domU2);
    });

    it("dom0 with two domUs: dom0 keeps 50%, the domUs split the rest", () => {
        const measured = scenario("dom0 and two domUs").whileDom0ActiveMeanMBps as Record<string, number>;
        const p = byName(
            predictXenShares({
                linkMBps: LINK,
                guests: [
                    { name: "dom0", domain: "dom0" },
                    { name: "domU1", domain: "domU" },
                    { name: "domU2", domain: "domU" },
                ],
            }),
        );
        expect(p.dom0).toBeCloseTo(5.55, 10);
        expect(p.domU1).toBeCloseTo(2.775, 10);
        expectNear(p.dom0, measured.dom0);
        expectNear(p.domU1, measured.domU1);
        expectNear(p.domU2, measured.domU2);
    });

    it("domUs recover once dom0 stops (dom0 with no demand takes nothing)", () => {
        const measured = scenario("dom0 and two domUs").afterDom0DoneMeanMBps as Record<string, number>;
        const p = byName(
            predictXenShares({
                linkMBps: LINK,
                guests: [
                    { name: "dom0", domain: "dom0", demandMBps: 0 },
                    { name: "domU1", domain: "domU" },
                    { name: "domU2", domain: "domU" },
                ],
            }),
        );
        expect(p.dom0).toBe(0);
        expectNear(p.domU1, measured.domU1);
        expectNear(p.domU2, measured.domU2);
    });
});

describe("predictXenShares redistribution and caps", () => {
    it("dom0 demanding less than its share releases the rest to the domUs", () => {
        const p = byName(
            predictXenShares({
                linkMBps: 100,
                guests: [
                    { name: "dom0", domain: "dom0", demandMBps: 10 },
                    { name: "a", domain: "domU" },
                    { name: "b", domain: "domU" },
                ],
            }),
        );
        expect(p).toEqual({ dom0: 10, a: 45, b: 45 });
    });

    it("domUs demanding less release to other domUs, then to dom0", () => {
        const p = byName(
            predictXenShares({
                linkMBps: 100,
                guests: [
                    { name: "dom0", domain: "dom0" },
                    { name: "a", domain: "domU", demandMBps: 5 },
                    { name: "b", domain: "domU" },
                ],
            }),
        );
        // domUs' part is 50: a takes 5, b takes the other 45; dom0 stays at 50 (b wants more).
        expect(p).toEqual({ dom0: 50, a: 5, b: 45 });
        const q = byName(
            predictXenShares({
                linkMBps: 100,
                guests: [
                    { name: "dom0", domain: "dom0" },
                    { name: "a", domain: "domU", demandMBps: 5 },
                    { name: "b", domain: "domU", demandMBps: 15 },
                ],
            }),
        );
        expect(q).toEqual({ dom0: 80, a: 5, b: 15 });
    });

    it("several dom0 entries share dom0's part", () => {
        const p = byName(
            predictXenShares({
                linkMBps: 100,
                guests: [
                    { name: "backup", domain: "dom0" },
                    { name: "nfs", domain: "dom0" },
                    { name: "a", domain: "domU" },
                ],
            }),
        );
        expect(p).toEqual({ backup: 25, nfs: 25, a: 50 });
    });

    it("a VIF cap is a hard bound and its slack goes to the others", () => {
        const p = byName(
            predictXenShares({
                linkMBps: 90,
                guests: [
                    { name: "a", domain: "domU", capMBps: 10 },
                    { name: "b", domain: "domU" },
                    { name: "c", domain: "domU", demandMBps: 50, capMBps: 30 },
                ],
            }),
        );
        expect(p).toEqual({ a: 10, b: 50, c: 30 });
    });

    it("dom0Share is a parameter", () => {
        const guests = [
            { name: "dom0", domain: "dom0" as const },
            { name: "a", domain: "domU" as const },
        ];
        expect(byName(predictXenShares({ linkMBps: 100, dom0Share: 0.2, guests }))).toEqual({ dom0: 20, a: 80 });
        expect(byName(predictXenShares({ linkMBps: 100, dom0Share: 1, guests }))).toEqual({ dom0: 100, a: 0 });
        expect(byName(predictXenShares({ linkMBps: 100, dom0Share: 0, guests }))).toEqual({ dom0: 0, a: 100 });
    });

    it("returns entries in input order and handles no guests", () => {
        expect(predictXenShares({ linkMBps: 10, guests: [] })).toEqual([]);
        expect(
            predictXenShares({
                linkMBps: 10,
                guests: [
                    { name: "z", domain: "domU" },
                    { name: "a", domain: "domU", demandMBps: 1 },
                ],
            }).map((s) => s.name),
        ).toEqual(["z", "a"]);
    });
});

describe("predictXenShares rejects invalid input with a RangeError naming the field", () => {
    const ok = [{ name: "a", domain: "domU" as const }];
    it.each([
        ["linkMBps 0", { linkMBps: 0, guests: ok }, /linkMBps/],
        ["linkMBps negative", { linkMBps: -1, guests: ok }, /linkMBps/],
        ["linkMBps infinite", { linkMBps: Infinity, guests: ok }, /linkMBps/],
        ["linkMBps NaN", { linkMBps: NaN, guests: ok }, /linkMBps/],
        ["dom0Share above 1", { linkMBps: 10, dom0Share: 1.5, guests: ok }, /dom0Share/],
        ["dom0Share negative", { linkMBps: 10, dom0Share: -0.1, guests: ok }, /dom0Share/],
        ["negative demand", { linkMBps: 10, guests: [{ name: "a", domain: "domU", demandMBps: -1 }] }, /guests\[0\]\.demandMBps/],
        [
            "NaN cap",
            {
                linkMBps: 10,
                guests: [
                    { name: "a", domain: "domU" },
                    { name: "b", domain: "domU", capMBps: NaN },
                ],
            },
            /guests\[1\]\.capMBps/,
        ],
        ["negative cap", { linkMBps: 10, guests: [{ name: "a", domain: "domU", capMBps: -2 }] }, /guests\[0\]\.capMBps/],
        [
            "duplicate names",
            {
                linkMBps: 10,
                guests: [
                    { name: "a", domain: "domU" },
                    { name: "a", domain: "dom0" },
                ],
            },
            /guests\[1\]\.name/,
        ],
        ["unknown domain", { linkMBps: 10, guests: [{ name: "a", domain: "dom1" }] }, /guests\[0\]\.domain/],
    ])("%s", (_name, input, pattern) => {
        expect(() => predictXenShares(input as never)).toThrow(RangeError);
        expect(() => predictXenShares(input as never)).toThrow(pattern);
    });
});
