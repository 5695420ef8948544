import { describe, expect, it } from "vitest";
import type { StackValidationPolicy } from "@pulumi/policy";
import { xenDom0Workload } from "../../policies/xen-dom0-workload";
import { xenGuestNetworkShare } from "../../policies/xen-guest-network-share";
import { pct } from "../../policies/support/format";
import { runStackPolicy, TestResource, UNKNOWN_VALUE, verdicts, Violation } from "../support/policyHarness";
import { dom0Service, setTags, VM, XCP01_UUID, XCP02_UUID, xenBaselineConfig, xenStack } from "./xenFixtures";

type Config = Record<string, unknown>;

async function runBoth(resources: TestResource[], shareConfig: Config = xenBaselineConfig(), dom0Config: Config = {}): Promise<Violation[]> {
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
        ["no link figure for xcp-02 (reported once, on its first guest)", xenStack(), ["xen-guest-network-share -> app"], withoutXcp02],
        ["defaultLinkMBps null (the default) is no figure", xenStack(), ["xen-guest-network-share -> app"], { ...withoutXcp02, defaultLinkMBps: null }],
        ["defaultLinkMBps gives xcp-02 its link", xenStack(), [], { ...withoutXcp02, defaultLinkMBps: 110 }],
        // app 40 + ci 35 on 60 MB/s: 30 each.
        ["defaultLinkMBps too small for xcp-02", xenStack(), ["xen-guest-network-share -> app", "xen-guest-network-share -> ci"], { ...withoutXcp02, defaultLinkMBps: 60 }],
        // xcp-02 by name: dom0 wants 5 + 60, keeps 55; app and ci share 55: 27.5 each.
        ["a backup service in dom0 of xcp-02 (host by fact)", xenStack({ add: [dom0Service("backup", "xcp-02", "backup", "60")] }), ["xen-dom0-workload -> backup", "xen-guest-network-share -> app", "xen-guest-network-share -> ci"]],
        ["a dom0 workload with no host", xenStack({ add: [dom0Service("backup", undefined, undefined, "60")] }), ["xen-dom0-workload -> backup"]],
        // dom0Share 0.2: dom0 keeps max(22, 110 - 75) = 35, the domUs get their 75.
        ["a smaller dom0Share in config", xenStack(backupOn01), ["xen-dom0-workload -> backup"], { ...xenBaselineConfig(), dom0Share: 0.2 }],
        ["config host keys match case-insensitively", xenStack(), [], { hosts: { [XCP01_UUID.toUpperCase()]: { linkMBps: 110 }, "XCP-02": { linkMBps: 110 } } }],
        ["a guest with a need but no host is reported", xenStack({ name: "db", edit: (p) => { delete p.affinityHost; } }), ["xen-guest-network-share -> db"]],
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
        expect(v.message).toContain("Vm \"ci\" on Xen host \"xcp-02\" (perfguard:xenHost in tags list) needs 35 MB/s");
    });
    it("affinityHost names the host when there is no fact", async () => {
        const [v] = await runStackPolicy(xenGuestNetworkShare, xenStack(backupOn01), xenBaselineConfig());
        expect(v.message).toContain(`Vm "db" on Xen host "${XCP01_UUID}" (affinityHost) needs 45 MB/s`);
    });
});

describe("unknown values (preview)", () => {
    it("a VM whose tags are unknown is left out; the others are still judged", async () => {
        const stack = xenStack(backupOn01);
        (stack.find((r) => r.name === "app") as TestResource).props.tags = UNKNOWN_VALUE;
        const found = await runBoth(stack);
        expect(verdicts(found)).toEqual(["xen-dom0-workload -> backup", "xen-guest-network-share -> db"]);
        expect(found.some((v) => /can't run|could not evaluate/.test(v.message))).toBe(false);
    });
    it("a VM whose affinityHost is unknown is left out of its host's model", async () => {
        // Without web, xcp-01's domUs want 55 (db 45, cache 10) and dom0 keeps 55: db is met.
        const stack = xenStack(backupOn01);
        (stack.find((r) => r.name === "web") as TestResource).props.affinityHost = UNKNOWN_VALUE;
        expect(verdicts(await runBoth(stack))).toEqual(["xen-dom0-workload -> backup"]);
    });
    it("an unknown role of a dom0 service: not judged, traffic not counted", async () => {
        // Unknowns are per value (docs/facts.md#not-checked): an unknown list item hides only itself,
        // so the role's value itself is what is unknown here (a tags map).
        const backup = dom0Service("backup", XCP01_UUID, undefined, undefined);
        backup.props.tags = { "perfguard:xenDomain": "dom0", "perfguard:xenHost": XCP01_UUID, "perfguard:xenDom0Role": UNKNOWN_VALUE };
        expect(verdicts(await runBoth(xenStack({ add: [backup] })))).toEqual([]);
    });
    it("an unknown need on one guest does not stop the verdict on another", async () => {
        // web's host is declared, its need is unknown: it takes nothing in the model and is not judged.
        const unknownWeb = (props: Record<string, unknown>) => {
            props.tags = { "perfguard:xenHost": XCP01_UUID, "perfguard:networkMBps": UNKNOWN_VALUE };
        };
        // With backup: dom0 keeps 55 of 110; db 45 + cache 10 fit the other 55.
        const met = xenStack({ name: "web", edit: unknownWeb });
        met.push(...backupOn01.add);
        expect(verdicts(await runBoth(met))).toEqual(["xen-dom0-workload -> backup"]);
        // And with cache needing 30 MB/s: db and cache share 55, 27.5 each: db (and cache) are still judged.
        const short = xenStack({ name: "web", edit: unknownWeb });
        short.push(...backupOn01.add);
        (short.find((r) => r.name === "cache") as TestResource).props.tags = ["perfguard:networkMBps=30"];
        const found = await runBoth(short);
        expect(verdicts(found)).toEqual(["xen-dom0-workload -> backup", "xen-guest-network-share -> cache", "xen-guest-network-share -> db"]);
        const db = found.find((v) => v.urn?.endsWith("::db")) as Violation;
        expect(db.message).toContain("is predicted 27.5 MB/s");
        expect(db.message).toContain("1 guest with an unknown or invalid fact was not counted.");
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
    it("xen-dom0-workload takes no config: a key is reported as unknown and the check still runs", async () => {
        const found = await runStackPolicy(xenDom0Workload, xenStack(backupOn01), { hosts: {} });
        expect(found).toHaveLength(2);
        expect(found[0].message).toMatch(/unknown config key "hosts" for policy xen-dom0-workload[\s\S]*accepted keys are unverified,/);
        expect(found[1].urn).toMatch(/::backup$/);
    });
    it("schema defaults and bounds", () => {
        const props = xenGuestNetworkShare.configSchema?.properties ?? {};
        expect(props.dom0Share).toMatchObject({ type: "number", minimum: 0, maximum: 1, default: 0.5 });
        expect(props.defaultLinkMBps).toMatchObject({ type: ["number", "null"], exclusiveMinimum: 0, default: null });
        expect(props.hosts).toMatchObject({ type: "object", default: {} });
        expect(Object.keys(xenDom0Workload.configSchema?.properties ?? {})).toEqual(["unverified"]);
    });
});

describe("messages give the numbers, their source, the threshold and the fix", () => {
    it("xen-guest-network-share (golden)", async () => {
        const [v] = await runStackPolicy(xenGuestNetworkShare, xenStack(backupOn01), xenBaselineConfig());
        // By hand: dom0 wants 2 + 60 = 62 and keeps max(50% x 110, 110 - 65) = 55; cache declares no need (not
        // counted); web and db share the other 55 max-min fair: web 20, db 55 - 20 = 35; db needs 45: 10 short.
        const link = 110;
        const dom0Keeps = Math.min(62, Math.max(0.5 * link, link - 65));
        const db = link - dom0Keeps - 20;
        expect(v.message).toBe(
            `Vm "db" on Xen host "${XCP01_UUID}" (affinityHost) needs 45 MB/s (perfguard:networkMBps in tags list), ` +
            `but is predicted ${db} MB/s of the host's ${link} MB/s link (hosts["${XCP01_UUID}"].linkMBps), ${45 - db} MB/s short of its need ` +
            `(model: dom0 keeps >= 50% of the link while it transfers (dom0Share), the guests split the rest; see docs/policies/xen-guest-network-share.md). ` +
            `It shares the link with Vm "web" (20 MB/s needed) and ` +
            `dom0 (62 MB/s declared: Dom0Service "xo-agent" 2 MB/s + Dom0Service "backup" 60 MB/s (perfguard:networkMBps in tags list)). ` +
            `1 guest on the host declares no perfguard:networkMBps and was not counted (assumed idle for this check). ` +
            `Fix: move the dom0 workloads (Dom0Service "backup") into a domU; cap the dom0 management traffic of Dom0Service "xo-agent" or schedule it outside the guests' peak; ` +
            `or move a guest to another host, or give the host a faster link (its guests declare 65 MB/s and dom0 62 MB/s on a 110 MB/s link).`,
        );
        expect(v.message.length).toBeLessThan(1000); // a 36-character host UUID, two dom0 services and three alternative fixes
    });
    it("xen-guest-network-share: management traffic is capped or scheduled, never moved", async () => {
        // xo-agent (management) sends 100 MB/s: dom0 keeps max(55, 110 - 65) = 55; web 20, db 35 < 45.
        const [v] = await runStackPolicy(xenGuestNetworkShare, xenStack({ name: "xo-agent", edit: setTags("perfguard:xenDomain=dom0", `perfguard:xenHost=${XCP01_UUID}`, "perfguard:xenDom0Role=management", "perfguard:networkMBps=100") }), xenBaselineConfig());
        expect(v.message).toContain("but is predicted 35 MB/s of the host's 110 MB/s link");
        expect(v.message).toContain("Fix: cap the dom0 management traffic of Dom0Service \"xo-agent\" or schedule it outside the guests' peak; or move a guest");
        expect(v.message).not.toContain("into a domU");
    });
    it("xen-guest-network-share names dom0's configured traffic and the guest's own cap", async () => {
        const [capped] = await runStackPolicy(xenGuestNetworkShare, xenStack({ name: "app", edit: setTags("perfguard:xenHost=xcp-02", "perfguard:networkMBps=40", "perfguard:vifCapMBps=30") }), xenBaselineConfig());
        expect(capped.message).toContain("but is predicted 30 MB/s of the host's 110 MB/s link (hosts[\"xcp-02\"].linkMBps), 10 MB/s short");
        expect(capped.message).toContain("raise Vm \"app\"'s own VIF rate limit (perfguard:vifCapMBps in tags list: 30 MB/s, below its need)");
        expect(capped.message).toContain("dom0 (5 MB/s declared: 5 MB/s hosts[\"xcp-02\"].dom0NetworkMBps)");
        expect(capped.message).toContain("lower or reschedule dom0's other traffic (hosts[\"xcp-02\"].dom0NetworkMBps: 5 MB/s)");
    });
    it("xen-guest-network-share: a declared guest short on a host with undeclared guests says how many were not counted", async () => {
        // xcp-02 at 60 MB/s: dom0 5, app and ci share 55: 27.5 each < 40; tiny (no need) is not counted.
        const found = await runStackPolicy(xenGuestNetworkShare, xenStack({ add: [TINY] }), { ...withoutXcp02, hosts: { ...withoutXcp02.hosts, "xcp-02": { linkMBps: 60, dom0NetworkMBps: 5 } } });
        const app = found.find((v) => v.urn?.endsWith("::app")) as Violation;
        expect(app.message).toContain(`is predicted ${(60 - 5) / 2} MB/s`);
        expect(app.message).toContain("1 guest on the host declares no perfguard:networkMBps and was not counted (assumed idle for this check).");
    });
    it("xen-guest-network-share: guests with a need but no host are reported once, on the first", async () => {
        const noHost = (p: Record<string, unknown>) => { delete p.affinityHost; };
        const stack = xenStack({ name: "db", edit: noHost });
        noHost((stack.find((r) => r.name === "web") as TestResource).props);
        (stack.find((r) => r.name === "cache") as TestResource).props.tags = ["env:lab"];
        noHost((stack.find((r) => r.name === "cache") as TestResource).props);
        const found = await runStackPolicy(xenGuestNetworkShare, stack, xenBaselineConfig());
        expect(verdicts(found)).toEqual(["xen-guest-network-share -> web"]);
        expect(found[0].message).toBe(
            `Vm "web" declares the network bandwidth it needs, but has no Xen host (no perfguard:xenHost fact and no affinityHost), so perfguard cannot place it on a host's link: ` +
            `2 guests that declare a need could not be placed (Vm "web": 20 MB/s and Vm "db": 45 MB/s; perfguard:networkMBps), and their shares were not checked (this is reported once, on the first of them). ` +
            `Fix: declare perfguard:xenHost=<host UUID or name> on each (or set affinityHost), spelt as in the hosts policy config.`,
        );
    });
    it("xen-guest-network-share: an unchecked host (golden)", async () => {
        const [v] = await runStackPolicy(xenGuestNetworkShare, xenStack(), withoutXcp02);
        expect(v.message).toBe(
            `Vm "app" is on Xen host "xcp-02" (perfguard:xenHost in tags list), where 2 guests declare the network bandwidth they need ` +
            `(Vm "app": 40 MB/s and Vm "ci": 35 MB/s; perfguard:networkMBps), but the host has no link figure: no hosts entry matches "xcp-02" and defaultLinkMBps is not set. ` +
            `So their predicted shares were not checked (this is reported once per host, on its first guest that declares a need). ` +
            `Fix: add "xcp-02": { "linkMBps": <usable MB/s> } under hosts in xen-guest-network-share's policy config (1 Gb/s carries about 111 MB/s, scaling the source's 11.1 MB/s on ~100 Mb/s), or set defaultLinkMBps.`,
        );
    });
    it("xen-dom0-workload (golden)", async () => {
        const [v] = await runStackPolicy(xenDom0Workload, xenStack(backupOn01));
        // 3 guests on xcp-01: alone they get 1/3 of the link each when all send; with the service
        // dom0 keeps 1/2 and they share the other half: 1/6 each.
        expect(v.message).toBe(
            `Dom0Service "backup" runs in dom0 of Xen host "${XCP01_UUID}" (perfguard:xenDomain=dom0 and perfguard:xenHost in tags list on it) as a workload, not a management tool ` +
            `(perfguard:xenDom0Role is absent; only "management" belongs in dom0). ` +
            `While it transfers, the host's 3 guests (Vm "web", Vm "db" and Vm "cache") share 50% of the link instead of all of it: ` +
            `when all send at once each gets ${pct(0.5 / 3)} of the link instead of ${pct(1 / 3)} ` +
            `(model: dom0 keeps >= 50% of the link while it transfers (dom0Share: xen-guest-network-share's default), the guests split the rest; see docs/policies/xen-dom0-workload.md). ` +
            `It declares 60 MB/s (perfguard:networkMBps in tags list), counted by xen-guest-network-share against the guests' needs. ` +
            `Fix: move the service into a domU (the source's conclusion: dom0 for management only), or, if it is a management tool, declare perfguard:xenDom0Role=management.`,
        );
        expect(v.message).not.toContain("could not be computed");
        expect(v.message.length).toBeLessThan(900);
    });
    it("xen-dom0-workload without a host, and with a named role", async () => {
        const [noHost] = await runStackPolicy(xenDom0Workload, xenStack({ add: [dom0Service("backup", undefined, undefined, "60")] }));
        expect(noHost.message).toContain("runs in a Xen host's dom0 (perfguard:xenDomain=dom0 on it)");
        expect(noHost.message).toContain("Its host is not declared (no valid perfguard:xenHost on it), so the loss for that host's guests could not be computed.");
        const [undeclared] = await runStackPolicy(xenDom0Workload, xenStack({ add: [dom0Service("backup", XCP01_UUID, undefined, undefined)] }));
        expect(undeclared.message).toContain("It declares no perfguard:networkMBps, so xen-guest-network-share assumes it idle, as any undeclared sender; declare its peak MB/s to have it counted there.");
        expect(undeclared.message).not.toContain("as much as it can");
        const [named] = await runStackPolicy(xenDom0Workload, xenStack({ add: [dom0Service("backup", "xcp-02", "backup", "0")] }));
        expect(named.message).toContain("(perfguard:xenDom0Role in tags list is \"backup\"; only \"management\" belongs in dom0)");
        expect(named.message).toContain("It declares 0 MB/s (perfguard:networkMBps in tags list), so the model predicts no loss for the host's 2 guests today");
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
    it("one host with 3000 guests: every guest judged, in linear-ish time", async () => {
        const guests: TestResource[] = Array.from({ length: 3000 }, (_, i) => ({
            type: VM,
            name: `g${i}`,
            props: { affinityHost: XCP02_UUID, tags: ["perfguard:networkMBps=1"] },
        }));
        const started = Date.now();
        const found = await runStackPolicy(xenGuestNetworkShare, guests, { hosts: { [XCP02_UUID]: { linkMBps: 1500 } } });
        // 1500 MB/s over 3000 equal guests: 0.5 MB/s each, below the 1 MB/s need.
        expect(found).toHaveLength(3000);
        expect(found[0].message).toContain("is predicted 0.5 MB/s");
        expect(found[0].message).toContain(", 2991 more guests and dom0 (no declared traffic)");
        expect(Date.now() - started).toBeLessThan(10000);
    });
});
