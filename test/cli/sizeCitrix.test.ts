/**
 * Issue 19's and 22's `perfguard size citrix` cases through the built binary: first-come
 * throttles, one Site database, launch times at the successful rate, the RTT limit.
 */
import { describe, expect, it } from "vitest";
import { SITE_PLATEAU_BROKERED_PER_S } from "../../model/citrixGuidance";
import { perfguard } from "./cliHarness";

function json(stdout: string): Record<string, any> {
    return JSON.parse(stdout) as Record<string, any>;
}

describe("perfguard size citrix: load that shares one resource concentrates", () => {
    it("160 ms, four groups, two controllers: at most 12 per controller (one lock can receive both)", async () => {
        const doc = json((await perfguard(["size", "citrix", "--rtt-ms", "160", "--delivery-groups", "4", "--json"])).stdout);
        expect(doc.throttlePerController).toBeLessThanOrEqual(12);
        expect(doc.throttlePerController * 2).toBeLessThanOrEqual(doc.maxSafeConcurrency);
    });
    it("--group-peaks within what a lock sustains: the groups' peaks bound their locks", async () => {
        const doc = json((await perfguard(["size", "citrix", "--rtt-ms", "160", "--delivery-groups", "4", "--group-peaks", "10,10,10,10", "--json"])).stdout);
        expect(doc.zoneSafeConcurrency).toBe(40);
        expect(doc.throttlePerController).toBe(20);
        const exposed = json((await perfguard(["size", "citrix", "--rtt-ms", "160", "--delivery-groups", "4", "--group-peaks", "10,10,10,40", "--json"])).stdout);
        expect(exposed.throttlePerController).toBe(12);
        const bad = await perfguard(["size", "citrix", "--rtt-ms", "160", "--delivery-groups", "2", "--group-peaks", "10"]);
        expect(bad.code).toBe(2);
        expect(bad.stderr).toContain("--group-peaks needs 2 whole numbers");
    });
    it("10 ms, four groups: never above the measured Site plateau, labelled on its own line", async () => {
        const run = await perfguard(["size", "citrix", "--rtt-ms", "10", "--delivery-groups", "4"]);
        const doc = json((await perfguard(["size", "citrix", "--rtt-ms", "10", "--delivery-groups", "4", "--json"])).stdout);
        for (const row of doc.rows) {
            expect(row.brokeredPerS).toBeLessThanOrEqual(SITE_PLATEAU_BROKERED_PER_S + 1e-9);
        }
        expect(doc.atThrottle.brokeredPerS).toBeLessThanOrEqual(SITE_PLATEAU_BROKERED_PER_S + 1e-9);
        expect(doc.atThrottle.launchTimeS).toBeGreaterThanOrEqual(10000 / SITE_PLATEAU_BROKERED_PER_S - 1e-6);
        expect(run.stdout.split("\n").filter((l) => l.endsWith("not measured (one Delivery Group was tested)."))).toHaveLength(2);
    });
    it("200 ms, 3,000 users: launch times at the successful rate (a timed-out launch is retried)", async () => {
        const doc = json((await perfguard(["size", "citrix", "--rtt-ms", "200", "--users", "3000", "--json"])).stdout);
        for (const row of doc.rows) {
            expect(row.launchTimeS).toBeCloseTo(3000 / row.successfulPerS, 6);
        }
        const failing = doc.rows.find((r: { errorRate: number }) => r.errorRate > 0.6);
        expect(failing).toBeDefined();
        // 60.7% timed out at about 0.669 successful/s: 3,000 / 0.669 s, printed as 75 min.
        expect(failing.launchTimeS).toBeGreaterThanOrEqual(3000 / 0.67);
        const run = await perfguard(["size", "citrix", "--rtt-ms", "200", "--users", "3000"]);
        expect(run.stdout).toMatch(/ 60 +35\.3 s +1\.7 \/s +60\.7% +75 min /);
    });
    it.each([["250", true], ["260", true], ["249", false]])("at %s ms it says whether the pack blocks the zone", async (rtt, blocked) => {
        const run = await perfguard(["size", "citrix", "--rtt-ms", rtt]);
        expect(run.stdout.includes("the pack blocks this zone (citrix-zone-rtt-limit: 250 ms or more): Citrix advises a separate Site")).toBe(blocked);
    });
});
