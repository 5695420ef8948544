import { describe, expect, it } from "vitest";
import type { StackValidationPolicy } from "@pulumi/policy";
import { xenDom0Workload } from "../../../policies/xen/xen-dom0-workload";
import { xenGuestNetworkShare } from "../../../policies/xen/xen-guest-network-share";
import { parseMessage, PROBLEM_LINE_MAX } from "../../../policies/pack/message";
import { runStackPolicy, TestResource, UNKNOWN_VALUE, verdicts, Violation } from "../../support/policyHarness";
import { dom0Service, setTags, VM, XCP01_UUID, XCP02_UUID, xenBaselineConfig, xenStack } from "./xenFixtures";

type Config = Record<string, unknown>;

/** Both policies, with the same host config (a stack policy sees only its own config). */
async function runBoth(resources: TestResource[], shareConfig: Config = xenBaselineConfig(), dom0Config: Config = shareConfig): Promise<Violation[]> {
    return [
        ...await runStackPolicy(xenDom0Workload, resources, dom0Config),
        ...await runStackPolicy(xenGuestNetworkShare, resources, shareConfig),
    ];
}

const backupOn01 = { add: [dom0Service("backup", XCP01_UUID, undefined, "60")] };
/** A small guest on xcp-02 that declares neither a need nor a VIF cap. */
const TINY: TestResource = { type: VM, name: "tiny", props: { nameLabel: "tiny", affinityHost: XCP02_UUID, tags: ["env:lab", "perfguard:xenHost=xcp-02"] } };
const withoutXcp02 = { hosts: { [XCP01_UUID]: { linkMBps: 110 } } };

describe("Xen policies: a compliant baseline and one change per failing case", () => {
    const cases: Array<[string, TestResource[], string[], Config?]> = [
        ["baseline (both hosts fit their links)", xenStack(), []],
        // xcp-01: dom0 wants 62, keeps 55 (>= 50% of 110); domUs share 55: cache 10, web 20, db 25 < 45.
        ["a backup service in dom0 of xcp-01", xenStack(backupOn01), ["xen-dom0-workload -> backup", "xen-guest-network-share -> db"]],
        // A management tool is allowed in dom0, but its traffic still counts: dom0 keeps 55, db gets 25.
        ["the management agent sending 100 MB/s", xenStack({ name: "xo-agent", edit: setTags("perfguard:xenDomain=dom0", `perfguard:xenHost=${XCP01_UUID}`, "perfguard:xenDom0Role=management", "perfguard:networkMBps=100") }), ["xen-guest-network-share -> db"]],
        // cache declares no need: assumed idle whether or not it has a VIF cap (before: it sent as much as it could
        // and made db short, a false alarm wherever few guests declare a need).
        ["cache loses its VIF rate limit (no declared need: not counted)", xenStack({ name: "cache", edit: setTags() }), []],
        // A tiny guest on xcp-02 with no declared need and no cap: not counted, so app and ci still fit.
        ["an undeclared guest on xcp-02 is assumed idle", xenStack({ add: [TINY] }), []],
        ["app's own VIF cap below its need", xenStack({ name: "app", edit: setTags("perfguard:xenHost=xcp-02", "perfguard:networkMBps=40", "perfguard:vifCapMBps=30") }), ["xen-guest-network-share -> app"]],
        // Without its fact ci falls back to affinityHost (xcp-01): domUs share 108 (cache not counted): web 20, then db and ci 44 each < 45.
        ["ci without its xenHost fact lands on its affinityHost", xenStack({ name: "ci", edit: setTags("perfguard:networkMBps=45") }), ["xen-guest-network-share -> ci", "xen-guest-network-share -> db"]],
        // Not checked, grouped once on the stack (app and ci).
        ["no link figure for xcp-02: not checked", xenStack(), ["xen-guest-network-share -> (stack)"], withoutXcp02],
        ["defaultLinkMBps null (the default) is no figure", xenStack(), ["xen-guest-network-share -> (stack)"], { ...withoutXcp02, defaultLinkMBps: null }],
        ["defaultLinkMBps gives xcp-02 its link", xenStack(), [], { ...withoutXcp02, defaultLinkMBps: 110 }],
        // app 40 + ci 35 on 60 MB/s: 30 each.
        ["defaultLinkMBps too small for xcp-02", xenStack(), ["xen-guest-network-share -> app", "xen-guest-network-share -> ci"], { ...withoutXcp02, defaultLinkMBps: 60 }],
        // xcp-02 by name: dom0 wants 5 + 60, keeps 55; app and ci share 55: 27.5 each.
        ["a backup service in dom0 of xcp-02 (host by fact)", xenStack({ add: [dom0Service("backup", "xcp-02", "backup", "60")] }), ["xen-dom0-workload -> backup", "xen-guest-network-share -> app", "xen-guest-network-share -> ci"]],
        ["a dom0 workload with no host", xenStack({ add: [dom0Service("backup", undefined, undefined, "60")] }), ["xen-dom0-workload -> backup"]],
        // dom0Share 0.2: dom0 keeps max(22, 110 - 75) = 35, the domUs get their 75.
        ["a smaller dom0Share in config", xenStack(backupOn01), ["xen-dom0-workload -> backup"], { ...xenBaselineConfig(), dom0Share: 0.2 }],
        ["config host keys match case-insensitively", xenStack(), [], { hosts: { [XCP01_UUID.toUpperCase()]: { linkMBps: 110 }, "XCP-02": { linkMBps: 110 } } }],
        ["a guest with a need but no host is not checked", xenStack({ name: "db", edit: (p) => { delete p.affinityHost; } }), ["xen-guest-network-share -> (stack)"]],
        ["a guest with no host and no need is not reported", xenStack({ name: "cache", edit: (p) => { delete p.affinityHost; } }), []],
        // An undeclared dom0 workload: reported as a workload, assumed idle by the share check (as an undeclared guest).
        ["an undeclared dom0 workload on xcp-01", xenStack({ add: [dom0Service("backup", XCP01_UUID, undefined, undefined)] }), ["xen-dom0-workload -> backup"]],
    ];
    it.each(cases)("%s", async (_name, resources, expected, config) => {
        expect(verdicts(await runBoth(resources, config ?? xenBaselineConfig()))).toEqual([...expected].sort());
    });

    it("both policies are advisory stack policies", async () => {
        const found = await runBoth(xenStack(backupOn01));
        expect(found.map((v) => v.enforcementLevel)).toEqual(["advisory", "advisory"]);
        for (const p of [xenDom0Workload, xenGuestNetworkShare] as StackValidationPolicy[]) {
            expect(typeof p.validateStack).toBe("function");
        }
    });
});

describe("host of a guest", () => {
    it("the perfguard:xenHost fact wins over affinityHost (ci is judged on xcp-02)", async () => {
        // ci's affinityHost is xcp-01's UUID; on xcp-02 with a 60 MB/s link it gets 30 < 35.
        const [v] = (await runStackPolicy(xenGuestNetworkShare, xenStack(), { ...withoutXcp02, defaultLinkMBps: 60 })).filter((x) => x.urn?.endsWith("::ci"));
        expect(parseMessage(v.message).problem).toContain("Vm \"ci\" is predicted 30 of the 35 MB/s"); // 30: xcp-02's 60 MB/s link (its host named on the first guest's message)
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
    it("an unknown role of a dom0 service: not judged, traffic not counted", async () => {
        // Unknowns are per value (docs/facts.md#not-checked): an unknown list item hides only itself,
        // so the role's value itself is what is unknown here (a tags map).
        const backup = dom0Service("backup", XCP01_UUID, undefined, undefined);
        backup.props.tags = { "perfguard:xenDomain": "dom0", "perfguard:xenHost": XCP01_UUID, "perfguard:xenDom0Role": UNKNOWN_VALUE };
        // Its role is unknown: xen-dom0-workload cannot judge it; it declares no traffic, so the
        // guests' shares are still checked (an undeclared sender counts as idle there).
        expect(verdicts(await runBoth(xenStack({ add: [backup] })))).toEqual(["xen-dom0-workload -> (stack)"]);
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
        expect(verdicts(found)).toEqual(["xen-dom0-workload -> backup", "xen-guest-network-share -> (stack)", "xen-guest-network-share -> cache", "xen-guest-network-share -> db"]);
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
    it("xen-dom0-workload takes the same config as xen-guest-network-share", () => {
        expect(xenDom0Workload.configSchema?.properties).toEqual(xenGuestNetworkShare.configSchema?.properties);
        const props = xenGuestNetworkShare.configSchema?.properties ?? {};
        expect(props.dom0Share).toMatchObject({ type: "number", minimum: 0, maximum: 1, default: 0.5 });
        expect(props.defaultLinkMBps).toMatchObject({ type: ["number", "null"], exclusiveMinimum: 0, default: null });
        expect(props.hosts).toMatchObject({ type: "object", default: {} });
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
        const [v] = await runStackPolicy(xenGuestNetworkShare, xenStack({ name: "xo-agent", edit: setTags("perfguard:xenDomain=dom0", `perfguard:xenHost=${XCP01_UUID}`, "perfguard:xenDom0Role=management", "perfguard:networkMBps=100") }), xenBaselineConfig());
        const m = parseMessage(v.message);
        expect(m.problem).toContain("is predicted 35 of the 45 MB/s it needs");
        expect(m.fix).toMatch(/^cap the dom0 management traffic of Dom0Service "xo-agent" or schedule it outside the guests' peak; or move a guest/);
        expect(m.fix).not.toContain("into a domU");
    });
    // A VIF cap bounds transmit only; a guest short only by its own cap gets that fix alone, and the
    // host's total need counts each need only up to its cap (plus the raised figure when the fix raises it).
    const capOn02 = (need: number, cap: number) => xenStack({ name: "app", edit: setTags("perfguard:xenHost=xcp-02", `perfguard:networkMBps=${need}`, `perfguard:vifCapMBps=${cap}`) });
    const link02 = (linkMBps: number, dom0NetworkMBps = 5): Config => ({ hosts: { ...withoutXcp02.hosts, "xcp-02": { linkMBps, dom0NetworkMBps } } });
    it.each([
        // 110 MB/s, dom0 5: app 40 capped at 30, ci 35; with the cap lifted 5 + 40 + 35 = 80 <= 110: only the cap binds.
        ["only the cap binds (110 MB/s)", capOn02(40, 30), xenBaselineConfig(), "is predicted 30 of the 40 MB/s it needs: 10 MB/s short",
            "raise its own VIF rate limit (perfguard:vifCapMBps in tags list: 30 MB/s) to at least its need of 40 MB/s: the host's link has room for it."],
        // The review's case: need 50, cap 20, ci 35 and dom0 5 on 111 MB/s: 5 + 50 + 35 = 90 <= 111.
        ["need 50, cap 20, the link has room", capOn02(50, 20), link02(111), "is predicted 20 of the 50 MB/s it needs: 30 MB/s short",
            "raise its own VIF rate limit (perfguard:vifCapMBps in tags list: 20 MB/s) to at least its need of 50 MB/s: the host's link has room for it."],
        // 60 MB/s, dom0 5: domUs get 55, app 27.5 (its cap 30 does not bind) and ci 27.5: the link binds too.
        ["cap and link both short (60 MB/s)", capOn02(40, 30), link02(60), "is predicted 27.5 of the 40 MB/s it needs: 12.5 MB/s short",
            "raise Vm \"app\"'s own VIF rate limit (perfguard:vifCapMBps in tags list: 30 MB/s, below its need), then make room for it: " +
            "lower or reschedule dom0's other traffic (hosts[\"xcp-02\"].dom0NetworkMBps: 5 MB/s); or move a guest to another host, or give the host a faster link " +
            "(its guests need 65 MB/s within their VIF caps, 75 MB/s with that cap raised, and dom0 5 MB/s on 60 MB/s)."],
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
        setTags("perfguard:xenHost=xcp-02", `perfguard:networkMBps=${need}`, `perfguard:vifCapMBps=${cap}`)((stack.find((r) => r.name === "ci") as TestResource).props);
        return stack;
    };
    it.each([
        // 130 MB/s, no dom0 traffic: app and ci need 60 each, capped at 40; raised together 60 + 60 = 120 <= 130: each gets its own fix.
        ["raised together they fit (130 MB/s)", bothCapped(60, 40), link02(130, 0), ["app", "ci"], "raise its own VIF rate limit (perfguard:vifCapMBps in tags list: 40 MB/s) to at least its need of 60 MB/s: the host's link has room for it."],
        // 111 MB/s: either raise alone fits (60 + 40 = 100 <= 111), both together do not (120 > 111): the host's fix on the first.
        ["raised together they do not fit (111 MB/s)", bothCapped(60, 40), link02(111, 0), ["app"],
            "raise the VIF rate limits of Vm \"app\" and Vm \"ci\" (each below its need), then make room for them: move a guest to another host, or give the host a faster link " +
            "(its guests need 80 MB/s within their VIF caps, 120 MB/s with those caps raised, and dom0 0 MB/s on 111 MB/s)."],
    ])("xen-guest-network-share, two VIF caps on one host: %s", async (_name, resources, config, fixedOn, fix) => {
        const found = await runStackPolicy(xenGuestNetworkShare, resources, config);
        expect(found.map((v) => v.urn?.split("::").pop()).sort()).toEqual(["app", "ci"]);
        for (const v of found) {
            const name = v.urn?.split("::").pop() as string;
            const m = parseMessage(v.message);
            expect(m.problem).toContain("is predicted 40 of the 60 MB/s it needs: 20 MB/s short");
            expect(m.fix).toBe(fixedOn.includes(name) ? fix : "see the fix on Vm \"app\" (same host).");
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
        const found = await runStackPolicy(xenGuestNetworkShare, xenStack({ add: [TINY] }), { ...withoutXcp02, hosts: { ...withoutXcp02.hosts, "xcp-02": { linkMBps: 60, dom0NetworkMBps: 5 } } });
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
        const noHost = (p: Record<string, unknown>) => { delete p.affinityHost; };
        const stack = xenStack({ name: "db", edit: noHost });
        noHost((stack.find((r) => r.name === "web") as TestResource).props);
        (stack.find((r) => r.name === "cache") as TestResource).props.tags = ["env:lab"];
        noHost((stack.find((r) => r.name === "cache") as TestResource).props);
        const found = await runStackPolicy(xenGuestNetworkShare, stack, xenBaselineConfig());
        expect(verdicts(found)).toEqual(["xen-guest-network-share -> (stack)"]);
        const m = parseMessage(found[0].message);
        expect(m.problem).toBe("2 resources not checked: it declares perfguard:networkMBps but has no Xen host (no perfguard:xenHost fact, no affinityHost) (Vm \"db\", Vm \"web\").");
        expect(m.fix).toContain("declare perfguard:xenHost=<host UUID or name>");
    });
    it("xen-dom0-workload: the guests' loss from the same model as xen-guest-network-share", async () => {
        const [v] = await runStackPolicy(xenDom0Workload, xenStack(backupOn01), xenBaselineConfig());
        // Without backup: dom0 (xo-agent 2) and web 20 + db 45 fit 110. With it: web 20 + db 35 = 55 (as the share policy predicts).
        const m = parseMessage(v.message);
        expect(m.problem).toBe(`Dom0Service "backup" runs a workload in dom0 of Xen host "${XCP01_UUID}": at 60 MB/s it cuts its 2 guests from 65 to 55 MB/s.`);
        expect(m.fix).toBe("move it into a domU, or declare perfguard:xenDom0Role=management if it is a management tool.");
        const [share] = await runStackPolicy(xenGuestNetworkShare, xenStack(backupOn01), xenBaselineConfig());
        expect(parseMessage(share.message).problem).toContain("is predicted 35 of the 45 MB/s"); // 20 + 35 = 55
    });
    it("xen-dom0-workload without a host, undeclared traffic, a named role", async () => {
        const [noHost] = await runStackPolicy(xenDom0Workload, xenStack({ add: [dom0Service("backup", undefined, undefined, "60")] }), xenBaselineConfig());
        expect(parseMessage(noHost.message).problem).toBe("Dom0Service \"backup\" runs a workload in a Xen host's dom0.");
        expect(parseMessage(noHost.message).basis.join(" ")).toContain("no valid perfguard:xenHost on it");
        const [undeclared] = await runStackPolicy(xenDom0Workload, xenStack({ add: [dom0Service("backup", XCP01_UUID, undefined, undefined)] }), xenBaselineConfig());
        expect(parseMessage(undeclared.message).basis.join(" ")).toContain("it declares no perfguard:networkMBps: both Xen policies count it idle");
        const [named] = await runStackPolicy(xenDom0Workload, xenStack({ add: [dom0Service("backup", "xcp-02", "backup", "0")] }), xenBaselineConfig());
        expect(parseMessage(named.message).basis[0]).toBe("perfguard:xenDom0Role in tags list is not \"management\" (only \"management\" belongs in dom0)");
        const [noLink] = await runStackPolicy(xenDom0Workload, xenStack(backupOn01), {});
        expect(parseMessage(noLink.message).basis.join(" ")).toContain("has no link figure");
    });
    it("never echoes other property values", async () => {
        const stack = xenStack({ add: [dom0Service("backup", XCP01_UUID, undefined, "60"), dom0Service("nfs", "xcp-02", "nfs", "80")] });
        const found = await runBoth(stack, { hosts: { [XCP01_UUID]: { linkMBps: 110 } } });
        expect(found.length).toBeGreaterThanOrEqual(4);
        for (const v of found) {
            expect(v.message).not.toContain("SECRET-MARKER");
            expect(v.message).not.toContain("tmpl-ubuntu");
        }
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

describe("order", () => {
    it("gives the same violations for every rotation and reversal of the stack", async () => {
        const stack = xenStack({ add: [dom0Service("backup", XCP01_UUID, undefined, "60"), dom0Service("nfs", "xcp-02", "nfs", "80")] });
        const key = (vs: Violation[]) => vs.map((v) => `${v.policyName} ${v.urn} ${v.message}`).sort();
        const baseline = key(await runBoth(stack));
        expect(baseline.length).toBeGreaterThan(2);
        for (let shift = 1; shift < stack.length; shift++) {
            const rotated = [...stack.slice(shift), ...stack.slice(0, shift)];
            for (const order of [rotated, [...rotated].reverse()]) {
                expect(key(await runBoth(order))).toEqual(baseline);
            }
        }
    });
});

describe("long names", () => {
    it("keep every problem line within 160 characters", async () => {
        const long = "h".repeat(60);
        const stack = xenStack({ add: [dom0Service(`backup-${long}`, XCP01_UUID, undefined, "60")] });
        (stack.find((r) => r.name === "db") as TestResource).name = `db-${long}`;
        const found = await runBoth(stack);
        expect(found.length).toBeGreaterThanOrEqual(2);
        for (const v of found) {
            expect(parseMessage(v.message).problem.length).toBeLessThanOrEqual(PROBLEM_LINE_MAX);
        }
    });
});
