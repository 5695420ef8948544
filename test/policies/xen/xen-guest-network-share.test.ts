/**
 * xen-guest-network-share (policies/xen/xen-guest-network-share.ts): a compliant baseline and one
 * change per case (the Xen table, xenFixtures.ts), the host of a guest, unknown values, config,
 * messages, VIF caps, scale; and on a bonded host link (issue 30, "Xen bonds"): a bond is declared by its
 * aggregate (`linkMBps`) with `bond: { members, mode }` in the hosts config, or by the program's
 * bonded network (XoaBondedNetwork: bondMode, pifIds). One VIF's share is capped by one member's
 * rate (balance-slb, active-backup); many VIFs share the aggregate (active-backup: one member).
 *
 * Across stacks (PERFGUARD_INVENTORY): team A's stack (vms-a) puts three guests on host 7c1f3a52
 * (30, 30 and 50 MB/s); team B's stack (vms-b) adds b-api (30 MB/s). The 111 MB/s link shared by
 * four: 27.75 MB/s each, below the 30 b-api needs.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, describe, expect, it } from "vitest";
import { xenDom0Workload } from "../../../policies/xen/xen-dom0-workload";
import { xenGuestNetworkShare } from "../../../policies/xen/xen-guest-network-share";
import { XEN_SHARE_SCHEMA } from "../../../policies/xen/hosts";
import { parseMessage, PROBLEM_LINE_MAX } from "../../../policies/pack/message";
import { expectViolation, runStackPolicy, TestResource, UNKNOWN_VALUE, verdicts, Violation } from "../../support/policyHarness";
import { fixture, previewOf, withInventoryEnv } from "../../support/inventoryStacks";
import {
    backupOn01,
    Config,
    dom0Service,
    runBoth,
    setTags,
    TINY,
    VM,
    withoutXcp02,
    XCP01_UUID,
    XCP02_UUID,
    xenBaselineConfig,
    xenCasesFor,
    xenStack,
} from "./xenFixtures";

const POLICY = "xen-guest-network-share";
const HOST = "xcp-bond";
const BOND = "xenorchestra:index/xoaBondedNetwork:XoaBondedNetwork";
/** 2 x 10 GbE declared by its aggregate: 2 x 1111 MB/s (1 Gb/s carries about 111 MB/s). */
const TWO_10G = 2222;
/** 2 x 25 GbE: 2 x 3125 MB/s. */
const TWO_25G = 6250;

function guest(name: string, needMBps: number, vifs = 1, network = "lan"): TestResource {
    return {
        type: VM,
        name,
        props: {
            nameLabel: name,
            affinityHost: HOST,
            networks: Array.from({ length: vifs }, () => ({ networkId: `${network}-id` })),
            tags: [`perfguard:networkMBps=${needMBps}`],
        },
        propertyDependencies: { networks: [network] },
    };
}

function bondedNetwork(name: string, bondMode: string, members: number): TestResource {
    return {
        type: BOND,
        name,
        props: { id: `${name}-id`, nameLabel: name, poolId: "pool-1", bondMode, pifIds: Array.from({ length: members }, (_, i) => `pif-${i}`) },
    };
}

function hosts(linkMBps: number, bond?: Record<string, unknown>): Record<string, unknown> {
    return { hosts: { [HOST]: { linkMBps, ...(bond ? { bond } : {}), dedicated: true } } };
}

const fifty = Array.from({ length: 50 }, (_, i) => guest(`app-${String(i).padStart(2, "0")}`, 100));

describe("xen-guest-network-share: a compliant baseline and one change per case", () => {
    it.each(xenCasesFor(POLICY))("%s", async (_name, resources, expected, config) => {
        expect(verdicts(await runStackPolicy(xenGuestNetworkShare, resources, config ?? xenBaselineConfig()))).toEqual([...expected].sort());
    });
    it("is an advisory stack policy", async () => {
        const found = await runStackPolicy(xenGuestNetworkShare, xenStack(backupOn01), xenBaselineConfig());
        expect(found.map((v) => v.enforcementLevel)).toEqual(["advisory"]);
        expect(typeof xenGuestNetworkShare.validateStack).toBe("function");
    });
});

describe("host of a guest", () => {
    it("the perfguard:xenHost fact wins over affinityHost (ci is judged on xcp-02)", async () => {
        // ci's affinityHost is xcp-01's UUID; on xcp-02 with a 60 MB/s link it gets 30 < 35.
        const [v] = (await runStackPolicy(xenGuestNetworkShare, xenStack(), { ...withoutXcp02, defaultLinkMBps: 60 })).filter((x) => x.urn?.endsWith("::ci"));
        expect(parseMessage(v.message).problem).toContain('Vm "ci" is predicted 30 of the 35 MB/s'); // 30: xcp-02's 60 MB/s link (its host named on the first guest's message)
        expect(parseMessage(v.message).basis[0]).toBe("needs 35 MB/s (perfguard:networkMBps in tags list); host: perfguard:xenHost in tags list");
    });
    it("affinityHost names the host when there is no fact", async () => {
        const [v] = await runStackPolicy(xenGuestNetworkShare, xenStack(backupOn01), xenBaselineConfig());
        expect(parseMessage(v.message).problem).toContain(`Vm "db" on Xen host "${XCP01_UUID}" is predicted`);
        expect(parseMessage(v.message).basis[0]).toBe("needs 45 MB/s (perfguard:networkMBps in tags list); host: affinityHost");
    });
});

describe("unknown values (preview)", () => {
    it("a VM whose tags are unknown is left out; the others are still judged", async () => {
        const stack = xenStack(backupOn01);
        (stack.find((r) => r.name === "app") as TestResource).props.tags = UNKNOWN_VALUE;
        const found = await runBoth(stack);
        // app's tags (its need and host fact) are unknown as a whole: not checked, never idle.
        expect(verdicts(found)).toEqual(["xen-dom0-workload -> backup", "xen-guest-network-share -> (stack)", "xen-guest-network-share -> db"]);
        expect(found.some((v) => /can't run|could not evaluate/.test(v.message))).toBe(false);
    });
    it("a VM whose affinityHost is unknown is not checked, and the guests it may share a host with neither", async () => {
        // Without web, xcp-01's domUs want 55 (db 45, cache 10) and dom0 keeps 55: db would be met, unless web runs there.
        const stack = xenStack(backupOn01);
        (stack.find((r) => r.name === "web") as TestResource).props.affinityHost = UNKNOWN_VALUE;
        const found = await runBoth(stack);
        expect(verdicts(found)).toEqual(["xen-dom0-workload -> backup", "xen-guest-network-share -> (stack)"]);
        expect(parseMessage((found.find((v) => v.urn === undefined) as Violation).message).basis.join(" ")).toMatch(/its host .* is unknown in this preview/);
    });
    it("an unknown need on one guest does not stop the verdict on another", async () => {
        // web's host is declared, its need is unknown: it takes nothing in the model and is not judged.
        const unknownWeb = (props: Record<string, unknown>) => {
            props.tags = { "perfguard:xenHost": XCP01_UUID, "perfguard:networkMBps": UNKNOWN_VALUE };
        };
        // With backup: dom0 keeps 55 of 110; db 45 + cache 10 fit the other 55.
        const met = xenStack({ name: "web", edit: unknownWeb });
        met.push(...backupOn01.add);
        expect(verdicts(await runBoth(met))).toEqual(["xen-dom0-workload -> backup", "xen-guest-network-share -> (stack)"]);
        // And with cache needing 30 MB/s: db and cache share 55, 27.5 each: db (and cache) are still judged.
        const short = xenStack({ name: "web", edit: unknownWeb });
        short.push(...backupOn01.add);
        (short.find((r) => r.name === "cache") as TestResource).props.tags = ["perfguard:networkMBps=30"];
        const found = await runBoth(short);
        expect(verdicts(found)).toEqual([
            "xen-dom0-workload -> backup",
            "xen-guest-network-share -> (stack)",
            "xen-guest-network-share -> cache",
            "xen-guest-network-share -> db",
        ]);
        const [cache, db] = ["::cache", "::db"].map((end) => parseMessage((found.find((v) => v.urn?.endsWith(end)) as Violation).message));
        expect(db.problem).toContain("is predicted 27.5 of the 45 MB/s it needs");
        // The host's context and fix once, on its first short guest by URN (cache); db points to it.
        expect(cache.basis.join(" ")).toContain("1 traffic source with an unknown or invalid figure");
        expect(db.fix).toBe(`see the fix on Vm "cache" (same host).`);
    });
});

describe("config", () => {
    it.each([
        [{ hosts: { "xcp-02": { linkMBps: 0 } } }, /invalid config for policy xen-guest-network-share: field hosts\.xcp-02\.linkMBps must be > 0 \(got 0\)/],
        [{ hosts: { "xcp-02": { dom0NetworkMBps: -1 } } }, /field hosts\.xcp-02\.dom0NetworkMBps must be >= 0 \(got -1\)/],
        [{ hosts: { "xcp-02": 110 } }, /field hosts\.xcp-02 must be object \(got 110\)/],
        [{ hosts: { "xcp-02": { linkMbps: 110 } } }, /field hosts\.xcp-02\.linkMbps is not a known key \(misspelt\?\)/],
        [{ hosts: [] }, /field hosts must be object/],
        [{ dom0Share: 1.5 }, /field dom0Share must be <= 1 \(got 1\.5\)/],
        [{ defaultLinkMBps: 0 }, /field defaultLinkMBps must be > 0 \(got 0\)/],
        [{ defaultLinkMBps: "fast" }, /field defaultLinkMBps must be number,null \(got "fast"\)/],
    ])("rejects bad config %j", async (config, pattern) => {
        const found = await runStackPolicy(xenGuestNetworkShare, xenStack(backupOn01), config);
        expect(found).toHaveLength(1);
        expect(found[0].enforcementLevel).toBe("mandatory");
        expect(found[0].message).toMatch(pattern);
    });
});

describe("messages give the numbers, their source, the threshold and the fix", () => {
    it("xen-guest-network-share: problem, fix and basis", async () => {
        const [v] = await runStackPolicy(xenGuestNetworkShare, xenStack(backupOn01), xenBaselineConfig());
        // By hand: dom0 wants 2 + 60 = 62 and keeps max(50% x 110, 110 - 65) = 55; cache declares no need (not
        // counted); web and db share the other 55 max-min fair: web 20, db 55 - 20 = 35; db needs 45: 10 short.
        const link = 110;
        const dom0Keeps = Math.min(62, Math.max(0.5 * link, link - 65));
        const db = link - dom0Keeps - 20;
        const m = parseMessage(v.message);
        expect(m.problem).toBe(`Vm "db" on Xen host "${XCP01_UUID}" is predicted ${db} of the 45 MB/s it needs: ${45 - db} MB/s short.`);
        expect(m.problem.length).toBeLessThanOrEqual(PROBLEM_LINE_MAX);
        expect(m.fix).toBe(
            `move the dom0 workloads (Dom0Service "backup") into a domU; cap the dom0 management traffic of Dom0Service "xo-agent" or schedule it outside the guests' peak; ` +
                `or move a guest to another host, or give the host a faster link (its guests need 65 MB/s and dom0 62 MB/s on 110 MB/s).`,
        );
        expect(m.basis.join("\n")).toContain(`link 110 MB/s (hosts["${XCP01_UUID}"].linkMBps)`);
        expect(m.basis.join("\n")).toContain("not counted: 1 guest without perfguard:networkMBps (assumed idle)");
    });
    it("xen-guest-network-share: management traffic is capped or scheduled, never moved", async () => {
        // xo-agent (management) sends 100 MB/s: dom0 keeps max(55, 110 - 65) = 55; web 20, db 35 < 45.
        const [v] = await runStackPolicy(
            xenGuestNetworkShare,
            xenStack({
                name: "xo-agent",
                edit: setTags("perfguard:xenDomain=dom0", `perfguard:xenHost=${XCP01_UUID}`, "perfguard:xenDom0Role=management", "perfguard:networkMBps=100"),
            }),
            xenBaselineConfig(),
        );
        const m = parseMessage(v.message);
        expect(m.problem).toContain("is predicted 35 of the 45 MB/s it needs");
        expect(m.fix).toMatch(/^cap the dom0 management traffic of Dom0Service "xo-agent" or schedule it outside the guests' peak; or move a guest/);
        expect(m.fix).not.toContain("into a domU");
    });
    // A VIF cap bounds transmit only; a guest short only by its own cap gets that fix alone, and the
    // host's total need counts each need only up to its cap (plus the raised figure when the fix raises it).
    const capOn02 = (need: number, cap: number) =>
        xenStack({ name: "app", edit: setTags("perfguard:xenHost=xcp-02", `perfguard:networkMBps=${need}`, `perfguard:vifCapMBps=${cap}`) });
    const link02 = (linkMBps: number, dom0NetworkMBps = 5): Config => ({
        hosts: { ...withoutXcp02.hosts, "xcp-02": { linkMBps, dom0NetworkMBps, dedicated: true } },
    });
    it.each([
        // 110 MB/s, dom0 5: app 40 capped at 30, ci 35; with the cap lifted 5 + 40 + 35 = 80 <= 110: only the cap binds.
        [
            "only the cap binds (110 MB/s)",
            capOn02(40, 30),
            xenBaselineConfig(),
            "is predicted 30 of the 40 MB/s it needs: 10 MB/s short",
            "raise its own VIF rate limit (perfguard:vifCapMBps in tags list: 30 MB/s) to at least its need of 40 MB/s: the host's link has room for it.",
        ],
        // The review's case: need 50, cap 20, ci 35 and dom0 5 on 111 MB/s: 5 + 50 + 35 = 90 <= 111.
        [
            "need 50, cap 20, the link has room",
            capOn02(50, 20),
            link02(111),
            "is predicted 20 of the 50 MB/s it needs: 30 MB/s short",
            "raise its own VIF rate limit (perfguard:vifCapMBps in tags list: 20 MB/s) to at least its need of 50 MB/s: the host's link has room for it.",
        ],
        // 60 MB/s, dom0 5: domUs get 55, app 27.5 (its cap 30 does not bind) and ci 27.5: the link binds too.
        [
            "cap and link both short (60 MB/s)",
            capOn02(40, 30),
            link02(60),
            "is predicted 27.5 of the 40 MB/s it needs: 12.5 MB/s short",
            'raise Vm "app"\'s own VIF rate limit (perfguard:vifCapMBps in tags list: 30 MB/s, below its need), then make room for it: ' +
                'lower or reschedule dom0\'s other traffic (hosts["xcp-02"].dom0NetworkMBps: 5 MB/s); or move a guest to another host, or give the host a faster link ' +
                "(its guests need 65 MB/s within their VIF caps, 75 MB/s with that cap raised, and dom0 5 MB/s on 60 MB/s).",
        ],
    ])("xen-guest-network-share, VIF cap: %s", async (_name, resources, config, problem, fix) => {
        const found = await runStackPolicy(xenGuestNetworkShare, resources, config);
        const app = found.find((v) => v.urn?.endsWith("::app")) as Violation;
        const m = parseMessage(app.message);
        expect(m.problem).toContain(problem);
        expect(m.fix).toBe(fix);
        expect(m.basis[0]).toContain("VIF cap");
        expect(m.basis[0]).toContain("limits transmit only: its need is assumed to be transmit");
        for (const line of app.message.split("\n")) {
            expect(line.length).toBeLessThanOrEqual(line.startsWith("Fix:") || line.startsWith("Basis:") ? 400 : PROBLEM_LINE_MAX);
        }
    });
    // Several cap-bound guests on one host: whether raising their caps fits is decided for all of them together.
    const bothCapped = (need: number, cap: number) => {
        const stack = capOn02(need, cap);
        setTags(
            "perfguard:xenHost=xcp-02",
            `perfguard:networkMBps=${need}`,
            `perfguard:vifCapMBps=${cap}`,
        )((stack.find((r) => r.name === "ci") as TestResource).props);
        return stack;
    };
    it.each([
        // 130 MB/s, no dom0 traffic: app and ci need 60 each, capped at 40; raised together 60 + 60 = 120 <= 130: each gets its own fix.
        [
            "raised together they fit (130 MB/s)",
            bothCapped(60, 40),
            link02(130, 0),
            ["app", "ci"],
            "raise its own VIF rate limit (perfguard:vifCapMBps in tags list: 40 MB/s) to at least its need of 60 MB/s: the host's link has room for it.",
        ],
        // 111 MB/s: either raise alone fits (60 + 40 = 100 <= 111), both together do not (120 > 111): the host's fix on the first.
        [
            "raised together they do not fit (111 MB/s)",
            bothCapped(60, 40),
            link02(111, 0),
            ["app"],
            'raise the VIF rate limits of Vm "app" and Vm "ci" (each below its need), then make room for them: move a guest to another host, or give the host a faster link ' +
                "(its guests need 80 MB/s within their VIF caps, 120 MB/s with those caps raised, and dom0 0 MB/s on 111 MB/s).",
        ],
    ])("xen-guest-network-share, two VIF caps on one host: %s", async (_name, resources, config, fixedOn, fix) => {
        const found = await runStackPolicy(xenGuestNetworkShare, resources, config);
        expect(found.map((v) => v.urn?.split("::").pop()).sort()).toEqual(["app", "ci"]);
        for (const v of found) {
            const name = v.urn?.split("::").pop() as string;
            const m = parseMessage(v.message);
            expect(m.problem).toContain("is predicted 40 of the 60 MB/s it needs: 20 MB/s short");
            expect(m.fix).toBe(fixedOn.includes(name) ? fix : 'see the fix on Vm "app" (same host).');
        }
    });
    it("xen-guest-network-share: a guest short only by its cap does not carry the host's fix", async () => {
        // xcp-02 at 60 MB/s, dom0 5: app needs 20 capped at 10 (lifted: 5 + 20 + 35 = 60 fits); ci 35 gets 35.
        // Lower the link to 50: domUs get 45; app 10 (cap), ci 35: still fits: only app is short, by its cap.
        const found = await runStackPolicy(xenGuestNetworkShare, capOn02(20, 10), link02(50));
        expect(found.map((v) => v.urn?.split("::").pop())).toEqual(["app"]);
        expect(parseMessage(found[0].message).fix).not.toContain("faster link");
    });
    // Every link in the baseline (110 MB/s) is beyond the ~100 Mb/s (11.1 MB/s) link the split was measured on.
    it.each([
        ["1100 MB/s: extrapolated", 1100, true],
        ["110 MB/s: extrapolated", 110, true],
        ["11.1 MB/s, the measured link: not extrapolated", 11.1, false],
        ["10 MB/s: not extrapolated", 10, false],
    ])("the basis labels figures beyond the measured link: %s", async (_name, linkMBps, extrapolated) => {
        // xcp-02 scaled from 110 MB/s: app 40, ci 35, dom0 5 plus a backup workload of 100 in dom0:
        // dom0 keeps 50%, app and ci share the rest, so app is short on every link size.
        const scale = linkMBps / 110;
        const resources = xenStack({ add: [dom0Service("backup", "xcp-02", undefined, String(100 * scale))] });
        for (const r of resources) {
            if (r.name === "app" || r.name === "ci") {
                setTags("perfguard:xenHost=xcp-02", `perfguard:networkMBps=${(r.name === "app" ? 40 : 35) * scale}`)(r.props);
            }
        }
        const config = link02(linkMBps, 5 * scale);
        const share = await runStackPolicy(xenGuestNetworkShare, resources, config);
        const dom0 = await runStackPolicy(xenDom0Workload, resources, config);
        const shortApp = share.find((v) => v.urn?.endsWith("::app")) as Violation;
        const backup = dom0.find((v) => v.urn?.endsWith("::backup")) as Violation;
        const label = "extrapolated: the dom0/domU split was not measured beyond 11.1 MB/s (~100 Mb/s link, old netback)";
        expect(parseMessage(shortApp.message).basis.includes(label)).toBe(extrapolated);
        expect(parseMessage(backup.message).basis.includes(label)).toBe(extrapolated);
    });
    it("xen-guest-network-share: the host's context is stated once, not on each guest", async () => {
        // xcp-02 at 60 MB/s: dom0 5, app and ci share 55: 27.5 each < 40 and < 35; tiny (no need) is not counted.
        const found = await runStackPolicy(xenGuestNetworkShare, xenStack({ add: [TINY] }), {
            ...withoutXcp02,
            hosts: { ...withoutXcp02.hosts, "xcp-02": { linkMBps: 60, dom0NetworkMBps: 5 } },
        });
        const [app, ci] = ["::app", "::ci"].map((end) => parseMessage((found.find((v) => v.urn?.endsWith(end)) as Violation).message));
        expect(app.problem).toContain(`is predicted ${(60 - 5) / 2} of the 40 MB/s`);
        expect(ci.problem).toContain(`is predicted ${(60 - 5) / 2} of the 35 MB/s`);
        expect(app.basis.join(" ")).toContain("not counted: 1 guest without perfguard:networkMBps");
        expect(ci.fix).toBe(`see the fix on Vm "app" (same host).`);
        for (const line of ci.basis) {
            expect(app.basis).not.toContain(line);
        }
    });
    it("xen-guest-network-share: guests with a need but no host are not checked, grouped once", async () => {
        const noHost = (p: Record<string, unknown>) => {
            delete p.affinityHost;
        };
        const stack = xenStack({ name: "db", edit: noHost });
        noHost((stack.find((r) => r.name === "web") as TestResource).props);
        (stack.find((r) => r.name === "cache") as TestResource).props.tags = ["env:lab"];
        noHost((stack.find((r) => r.name === "cache") as TestResource).props);
        const found = await runStackPolicy(xenGuestNetworkShare, stack, xenBaselineConfig());
        expect(verdicts(found)).toEqual(["xen-guest-network-share -> (stack)"]);
        const m = parseMessage(found[0].message);
        expect(m.problem).toBe(
            '2 resources not checked: it declares perfguard:networkMBps but has no Xen host (no perfguard:xenHost fact, no affinityHost) (Vm "db", Vm "web").',
        );
        expect(m.fix).toContain("declare perfguard:xenHost=<host UUID or name>");
    });
});

describe("scale", () => {
    // Its speed is measured by npm run bench (BENCHMARKS.md), not asserted: no test depends on wall-clock time.
    it("one host with 3000 guests: every guest judged", async () => {
        const guests: TestResource[] = Array.from({ length: 3000 }, (_, i) => ({
            type: VM,
            name: `g${i}`,
            props: { affinityHost: XCP02_UUID, tags: ["perfguard:networkMBps=1"] },
        }));
        const found = await runStackPolicy(xenGuestNetworkShare, guests, { hosts: { [XCP02_UUID]: { linkMBps: 1500 } } });
        // 1500 MB/s over 3000 equal guests: 0.5 MB/s each, below the 1 MB/s need.
        expect(found).toHaveLength(3000);
        const messages = found.map((v) => parseMessage(v.message));
        expect(messages[0].problem).toContain("is predicted 0.5 of the 1 MB/s it needs");
        expect(messages[0].basis.join(" ")).toContain("and 2991 more");
        expect(messages.filter((m) => m.fix?.startsWith("see the fix on"))).toHaveLength(2999);
    });
});

describe("xen-guest-network-share: a bonded link caps one VIF at one member", () => {
    const cases: Array<[string, TestResource[], Record<string, unknown>, string[]]> = [
        // Without a bond the 1500 MB/s fits the 2222 MB/s link: the baseline the bond changes.
        ["backup target on a 2222 MB/s link, no bond", [guest("backup", 1500)], hosts(TWO_10G), []],
        // balance-slb (the default mode): its one VIF is on one member, 1111 < 1500.
        [
            "backup target, 1 VIF, 2 x 10 GbE balance-slb (default mode)",
            [guest("backup", 1500)],
            hosts(TWO_10G, { members: 2 }),
            ["xen-guest-network-share -> backup"],
        ],
        [
            "backup target, 1 VIF, 2 x 10 GbE active-backup",
            [guest("backup", 1500)],
            hosts(TWO_10G, { members: 2, mode: "active-backup" }),
            ["xen-guest-network-share -> backup"],
        ],
        // Two VIFs reach two members: 2222 >= 1500.
        ["backup target with 2 VIFs on balance-slb", [guest("backup", 1500, 2)], hosts(TWO_10G, { members: 2, mode: "balance-slb" }), []],
        // LACP: several flows may spread over both members; one flow is not declared, so no verdict.
        ["backup target, 1 VIF, LACP", [guest("backup", 1500)], hosts(TWO_10G, { members: 2, mode: "lacp" }), []],
        // Many VIFs share the aggregate: 5000 of 6250 MB/s, each 100 below one member's 3125.
        ["50 guests x 100 MB/s on 2 x 25 GbE balance-slb", fifty, hosts(TWO_25G, { members: 2 }), []],
        ["50 guests x 100 MB/s on 2 x 25 GbE LACP", fifty, hosts(TWO_25G, { members: 2, mode: "lacp" }), []],
        // active-backup carries all on one member: 5000 > 3125, 62.5 MB/s each.
        [
            "50 guests x 100 MB/s on 2 x 25 GbE active-backup",
            fifty,
            hosts(TWO_25G, { members: 2, mode: "active-backup" }),
            fifty.map((g) => `xen-guest-network-share -> ${g.name}`),
        ],
        // The program's bonded network: read without any bond in the config.
        [
            "program declares a balance-slb bond of 2 PIFs",
            [bondedNetwork("lan", "balance-slb", 2), guest("backup", 1500)],
            hosts(TWO_10G),
            ["xen-guest-network-share -> backup"],
        ],
        ["program declares a LACP bond of 2 PIFs", [bondedNetwork("lan", "lacp", 2), guest("backup", 1500)], hosts(TWO_10G), []],
        // The bond's mode unknown in a preview: one member may bound the guest, so it is not checked (grouped on the stack)...
        [
            "the program's bond mode is unknown in the preview",
            [
                { ...bondedNetwork("lan", "balance-slb", 2), props: { ...bondedNetwork("lan", "balance-slb", 2).props, bondMode: UNKNOWN_VALUE } },
                guest("backup", 1500),
            ],
            hosts(TWO_10G),
            ["xen-guest-network-share -> (stack)"],
        ],
        // ...unless the config states the bond.
        [
            "the program's bond mode unknown, the config's bond states it",
            [
                { ...bondedNetwork("lan", "balance-slb", 2), props: { ...bondedNetwork("lan", "balance-slb", 2).props, bondMode: UNKNOWN_VALUE } },
                guest("backup", 1500),
            ],
            hosts(TWO_10G, { members: 2 }),
            ["xen-guest-network-share -> backup"],
        ],
        // A guest whose VIF is on another network does not go through the program's bond.
        ["the guest's VIF is on another network than the bond", [bondedNetwork("bond0", "balance-slb", 2), guest("backup", 1500)], hosts(TWO_10G), []],
        // Above both members even with one VIF each: 3 VIFs on 2 members reach 2222 < 2500.
        ["2500 MB/s with 3 VIFs on 2 x 10 GbE balance-slb", [guest("backup", 2500, 3)], hosts(TWO_10G, { members: 2 }), ["xen-guest-network-share -> backup"]],
        // balance-slb places each VIF whole on one member: two 700 MB/s VIFs fit two 1111 MB/s members...
        ["two 700 MB/s guests on 2 x 10 GbE balance-slb", [guest("vm-a", 700), guest("vm-b", 700)], hosts(TWO_10G, { members: 2 }), []],
        // ...three do not: one member carries two (1400 > 1111), those two get 555.5 each (vm-a and vm-c, by URN).
        [
            "three 700 MB/s guests on 2 x 10 GbE balance-slb",
            [guest("vm-a", 700), guest("vm-b", 700), guest("vm-c", 700)],
            hosts(TWO_10G, { members: 2 }),
            ["xen-guest-network-share -> vm-a", "xen-guest-network-share -> vm-c"],
        ],
        [
            "three 700 MB/s guests on the program's balance-slb bond",
            [bondedNetwork("lan", "balance-slb", 2), guest("vm-a", 700), guest("vm-b", 700), guest("vm-c", 700)],
            hosts(TWO_10G),
            ["xen-guest-network-share -> vm-a", "xen-guest-network-share -> vm-c"],
        ],
        // Four at 555 MB/s: two per member, 1110 <= 1111.
        ["four 555 MB/s guests on 2 x 10 GbE balance-slb", ["vm-a", "vm-b", "vm-c", "vm-d"].map((n) => guest(n, 555)), hosts(TWO_10G, { members: 2 }), []],
        // LACP stays per flow: no verdict from the members.
        [
            "three 700 MB/s guests on 2 x 10 GbE LACP",
            [guest("vm-a", 700), guest("vm-b", 700), guest("vm-c", 700)],
            hosts(TWO_10G, { members: 2, mode: "lacp" }),
            [],
        ],
    ];
    it.each(cases)("%s", async (_name, resources, config, expected) => {
        expect(verdicts(await runStackPolicy(xenGuestNetworkShare, resources, config))).toEqual([...expected].sort());
    });

    it("balance-slb: the two guests on the busy member are each 144.5 MB/s short, and the Basis says how VIFs are placed", async () => {
        const v = expectViolation(
            await runStackPolicy(xenGuestNetworkShare, [guest("vm-a", 700), guest("vm-b", 700), guest("vm-c", 700)], hosts(TWO_10G, { members: 2 })),
            {
                policy: "xen-guest-network-share",
                resource: "vm-a",
                problem: ["predicted 555.5 of the 700 MB/s it needs: 144.5 MB/s short"],
            },
        );
        expect(v.basis.join("\n")).toContain('bond: 2 x 1111 MB/s balance-slb (hosts["xcp-bond"].bond): each VIF whole on one member');
    });

    it.each([
        // 3 x 400 on one 1111 MB/s member: 370.33 each; balance-slb puts at most 2 x 400 = 800 on a member.
        ["three 400 MB/s guests", 400, true],
        // 2 x 700 = 1400 > 1111 on the busy member: balance-slb would not fit, so it is not offered.
        ["three 700 MB/s guests", 700, false],
    ])("active-backup host, %s: switching to balance-slb is offered first only when it fits", async (_name, need, offered) => {
        const v = expectViolation(
            await runStackPolicy(
                xenGuestNetworkShare,
                [guest("vm-a", need), guest("vm-b", need), guest("vm-c", need)],
                hosts(TWO_10G, { members: 2, mode: "active-backup" }),
            ),
            {
                policy: "xen-guest-network-share",
                resource: "vm-a",
                fix: ["move a guest to another host, or give the host a faster link"],
            },
        );
        const fix = v.fix;
        expect(fix.startsWith('switch the bond (hosts["xcp-bond"].bond) from active-backup to balance-slb')).toBe(offered);
        expect(fix.includes("balance-slb")).toBe(offered);
    });

    it("the backup target's message names one member's rate and the fixes", async () => {
        const v = expectViolation(await runStackPolicy(xenGuestNetworkShare, [guest("backup", 1500)], hosts(TWO_10G, { members: 2 })), {
            policy: "xen-guest-network-share",
            resource: "backup",
            problem: ["needs 1500 MB/s on a 2 x 1111 MB/s balance-slb bond: it reaches 1111 MB/s (1 VIF, one member per VIF)"],
            fix: [
                "give it 2 VIFs on the bond",
                "LACP with several flows",
                'faster member NICs (each carrying at least 1500 MB/s; then update hosts["xcp-bond"].linkMBps)',
            ],
            level: "advisory",
        });
        expect(v.basis.join("\n")).toContain('bond: 2 members (hosts["xcp-bond"].bond), balance-slb places each VIF (source MAC) on one member at a time');
    });

    it("active-backup's fix offers balance-slb or LACP; the message names one member", async () => {
        expectViolation(await runStackPolicy(xenGuestNetworkShare, [guest("backup", 1500)], hosts(TWO_10G, { members: 2, mode: "active-backup" })), {
            policy: "xen-guest-network-share",
            resource: "backup",
            problem: ["active-backup bond: it reaches 1111 MB/s (one member carries all)"],
            fix: ["switch the bond to balance-slb and give it 2 VIFs", "LACP with several flows"],
        });
    });

    it("above every member: the fix asks for faster or more members, not more VIFs", async () => {
        const v = expectViolation(await runStackPolicy(xenGuestNetworkShare, [guest("backup", 2500, 3)], hosts(TWO_10G, { members: 2 })), {
            policy: "xen-guest-network-share",
            resource: "backup",
            problem: ["it reaches 2222 MB/s (3 VIFs, one member per VIF)"],
            fix: ["even with one VIF per member", "more members"],
        });
        expect(v.fix).not.toContain("give it");
    });

    it("the program's bonded network wins over the config, and the disagreement is named", async () => {
        const v = expectViolation(
            await runStackPolicy(
                xenGuestNetworkShare,
                [bondedNetwork("lan", "balance-slb", 2), guest("backup", 1500)],
                hosts(TWO_10G, { members: 2, mode: "lacp" }),
            ),
            {
                policy: "xen-guest-network-share",
                resource: "backup",
                problem: ["balance-slb bond"],
            },
        );
        expect(v.basis.join("\n")).toContain(
            'hosts["xcp-bond"].bond says 2 x lacp, the program\'s XoaBondedNetwork "lan" 2 x balance-slb: the program\'s is used',
        );
    });
});

describe("the bond config", () => {
    const bond = (
        XEN_SHARE_SCHEMA.hosts.additionalProperties as { properties: Record<string, { properties?: Record<string, { default?: unknown; minimum?: number }> }> }
    ).properties.bond;
    it("defaults the mode to balance-slb (XenServer's default) in the schema, and a bond has at least 2 members", () => {
        expect(bond.properties?.mode.default).toBe("balance-slb");
        expect(bond.properties?.members.minimum).toBe(2);
    });
    it("xen-dom0-workload takes the same bond config and states the cost on the active-backup member", async () => {
        const dom0: TestResource = {
            type: "perfguard:example:Dom0Service",
            name: "restic",
            props: { tags: ["perfguard:xenDomain=dom0", `perfguard:xenHost=${HOST}`, "perfguard:networkMBps=2000"] },
        };
        const v = expectViolation(await runStackPolicy(xenDom0Workload, [guest("backup", 1000), dom0], hosts(TWO_10G, { members: 2, mode: "active-backup" })), {
            policy: "xen-dom0-workload",
            resource: "restic",
            // One member, 1111 MB/s: dom0 keeps 555.5, the guest gets 555.5 instead of 1000.
            problem: ["cuts its 1 guest from 1000 to 555.5 MB/s"],
        });
        expect(v.basis.join("\n")).toContain('on a 1111 MB/s link (hosts["xcp-bond"].linkMBps / 2 members: active-backup carries all on one member)');
    });
});

const INVENTORY_HOST = "7c1f3a52-5d0e-4b8a-9f21-6a0e2b4c8d11";
const INVENTORY_LINE = `Vm "b-api" on Xen host "${INVENTORY_HOST}" is predicted 27.75 of the 30 MB/s it needs: 2.25 MB/s short.`;
const INVENTORY_CONFIG = { hosts: { [INVENTORY_HOST]: { linkMBps: 111 } } };
const ALONE = `host "${INVENTORY_HOST}": other stacks' guests not counted; this stack's fit (30 of 111 MB/s)`;

describe("team B's guest on a host team A's guests fill", () => {
    it.each([
        [
            "no inventory: b-api alone fits, not checked (other stacks' guests not counted), never a silent pass",
            undefined,
            [[undefined, `1 resource not checked: ${ALONE} (Vm "b-api").`]],
        ],
        ["with team A's export: b-api reported, team A's guests in the basis", fixture("vms-a.json"), [["b-api", INVENTORY_LINE]]],
        ["with team B's own earlier deployment too: counted once", `${fixture("vms-a.json")},${fixture("vms-b.json")}`, [["b-api", INVENTORY_LINE]]],
    ] as const)("%s", async (_name, spec, expected) => {
        const out = await withInventoryEnv(spec, () => runStackPolicy(xenGuestNetworkShare, previewOf("vms-b.json"), INVENTORY_CONFIG));
        expect(out.map((v) => [v.urn?.split("::").pop(), parseMessage(v.message).problem])).toEqual(expected);
        for (const v of out) {
            expect(v.message).not.toMatch(/SECRETCIPHERTEXT|\[secret\]/);
        }
    });

    it.each([
        ["not dedicated: the fix names the inventory and the dedicated setting", INVENTORY_CONFIG, 1],
        ["dedicated to this stack (hosts entry): b-api alone fits, a pass", { hosts: { [INVENTORY_HOST]: { linkMBps: 111, dedicated: true } } }, 0],
    ])("no inventory, %s", async (_name, config, count) => {
        const out = await withInventoryEnv(undefined, () => runStackPolicy(xenGuestNetworkShare, previewOf("vms-b.json"), config));
        expect(out).toHaveLength(count);
        for (const v of out) {
            expect(v.enforcementLevel).toBe("advisory");
            expect(parseMessage(v.message).fix).toBe(
                `set PERFGUARD_INVENTORY to the stacks' state (docs/shared-capacity.md), or hosts["${INVENTORY_HOST}"].dedicated: true if only this stack places guests there`,
            );
        }
    });

    it("team A's pool seen through another Xen Orchestra: a host uuid still joins (one pool, whatever XO manages it)", async () => {
        const doc = JSON.parse(fs.readFileSync(fixture("vms-a.json"), "utf8")) as {
            deployment: { resources: Array<{ type: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }> };
        };
        for (const r of doc.deployment.resources.filter((x) => x.type === "pulumi:providers:xenorchestra")) {
            for (const props of [r.inputs, r.outputs]) {
                if (props) props.url = "wss://xo2.example.com";
            }
        }
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-xenuuid-"));
        try {
            const file = path.join(dir, "vms-a-xo2.json");
            fs.writeFileSync(file, JSON.stringify(doc));
            const provider = { urn: "urn:pulumi:prod::vms-b::pulumi:providers:xenorchestra::xo", props: { url: "wss://xo.example.com" } };
            const teamB = previewOf("vms-b.json", (r) => (r.type.startsWith("xenorchestra:") ? { ...r, provider } : r));
            const out = await withInventoryEnv(file, () => runStackPolicy(xenGuestNetworkShare, teamB, INVENTORY_CONFIG));
            expect(out.map((v) => [v.urn?.split("::").pop(), parseMessage(v.message).problem])).toEqual([["b-api", INVENTORY_LINE]]);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });

    it("names the demand on the link and the other stack's guests", async () => {
        const out = await withInventoryEnv(fixture("vms-a.json"), () => runStackPolicy(xenGuestNetworkShare, previewOf("vms-b.json"), INVENTORY_CONFIG));
        const text = out.map((v) => v.message).join("\n");
        expect(text).toMatch(/140 MB\/s/);
        expect(text).toMatch(/111 MB\/s/);
        expect(text).toContain('Vm "a-db" 50 MB/s (stack vms-a/prod, deployed 2026-12-04T21:30:00Z)');
    });
});

/**
 * A host named (not by uuid) across stacks (issue 32): another Xen Orchestra's host of the same
 * name is another pool's, never joined; where the Xen Orchestras cannot be compared, team A's
 * guests cannot be placed, and b-api is not checked rather than judged alone.
 */
describe("team B's guest on a host named xcp-01 in both stacks", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-xenjoin-"));
    afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

    /** Team A's export with its guests on host `xcp-01`, its provider's url `url` (null: none). */
    function teamA(url: string | null): string {
        const doc = JSON.parse(fs.readFileSync(fixture("vms-a.json"), "utf8").split(INVENTORY_HOST).join("xcp-01")) as {
            deployment: { resources: Array<{ type: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }> };
        };
        for (const r of doc.deployment.resources.filter((x) => x.type === "pulumi:providers:xenorchestra")) {
            for (const props of [r.inputs, r.outputs]) {
                if (props) {
                    if (url === null) {
                        delete props.url;
                    } else {
                        props.url = url;
                    }
                }
            }
        }
        const file = path.join(tmp, `vms-a-${url === null ? "none" : url.replace(/\W+/g, "_")}.json`);
        fs.writeFileSync(file, JSON.stringify(doc));
        return file;
    }
    const provider = { urn: "urn:pulumi:prod::vms-b::pulumi:providers:xenorchestra::xo", props: { url: "wss://xo.example.com" } };
    const teamB = (withProvider: boolean) =>
        previewOf("vms-b.json", (r) => ({
            ...r,
            props: JSON.parse(JSON.stringify(r.props).split(INVENTORY_HOST).join("xcp-01")) as Record<string, unknown>,
            ...(withProvider && r.type.startsWith("xenorchestra:") ? { provider } : {}),
        }));
    const config = { hosts: { "xcp-01": { linkMBps: 111 } } };
    const UNCLEAR = [
        [
            "(stack)",
            "Basis: other stacks' guests name its host, but their Xen Orchestra cannot be told from this stack's, so its share may be lower (stacks vms-a/prod): 1 (Vm \"b-api\")",
        ],
    ];
    const SHORT = `Vm "b-api" on Xen host "xcp-01" is predicted 27.75 of the 30 MB/s it needs: 2.25 MB/s short.`;

    it.each([
        ["baseline: one Xen Orchestra, both stacks declare it: joined", () => teamA("wss://xo.example.com"), true, [["b-api", SHORT]]],
        ["team A on another Xen Orchestra: another pool's xcp-01, b-api alone fits", () => teamA("wss://xo-other.example.com"), true, []],
        ["team B's Xen Orchestra unknown: not checked, never judged alone", () => teamA("wss://xo.example.com"), false, UNCLEAR],
        ["team A's Xen Orchestra unknown: not checked", () => teamA(null), true, UNCLEAR],
    ] as const)("%s", async (_name, spec, withProvider, expected) => {
        const out = await withInventoryEnv(spec(), () => runStackPolicy(xenGuestNetworkShare, teamB(withProvider), config));
        expect(out.map((v) => [v.urn?.split("::").pop() ?? "(stack)", v.message])).toEqual(expected.map(([urn, text]) => [urn, expect.stringContaining(text)]));
    });
});
