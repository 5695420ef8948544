/**
 * The Xen evaluation is the one source of the Xen figures: the verdicts, `check --report`'s Xen
 * section and `xenFigures` (diff) state the same numbers for the same host, and one stack object
 * is evaluated once per config.
 */
import { describe, expect, it } from "vitest";
import { xenSection } from "../../../cli/report/xen";
import { sizeXen } from "../../../cli/sizeXen";
import type { EntityFigures } from "../../../policies/pack/figures";
import { ResourceView, StackView } from "../../../policies/pack/resources";
import { NOT_CHECKED, XenBondMode, xenEvaluation, xenFigures } from "../../../policies/xen/evaluation";
import { xenDom0Workload } from "../../../policies/xen/xen-dom0-workload";
import { xenGuestNetworkShare } from "../../../policies/xen/xen-guest-network-share";
import { runStackPolicy, TestResource, UNKNOWN_VALUE, urnOf } from "../../support/policyHarness";
import { dom0Service, setTags, VM, XCP01_UUID, xenBaselineConfig, xenStack } from "./xenFixtures";

function viewOf(resources: TestResource[]): StackView {
    return new StackView(resources.map((r) => new ResourceView(r.urn ?? urnOf(r.type, r.name), r.type, r.name, structuredClone(r.props), {})));
}

function figure(entities: EntityFigures[], host: string, key: string): { value?: number; text: string; notChecked?: string } {
    const entity = entities.find((e) => e.id === host.toLowerCase());
    const found = entity?.figures.find((f) => f.key === key);
    if (!found) {
        throw new Error(`no figure ${key} on host ${host}: ${JSON.stringify(entity?.figures.map((f) => f.key))}`);
    }
    return found;
}

/** The baseline's hosts, dedicated to the stack, their links left to defaultLinkMBps. */
const DEDICATED = { [XCP01_UUID]: { dedicated: true }, "xcp-02": { dedicated: true } };
const backup = { add: [dom0Service("backup", XCP01_UUID, undefined, "60")] };

describe("xenFigures: per host, the link, dom0 and each guest's share against its need", () => {
    const cases: Array<[string, TestResource[], Record<string, unknown>, string, string, number | string]> = [
        ["baseline: web gets its 20 MB/s", xenStack(), xenBaselineConfig(), XCP01_UUID, "guest:web:predictedMBps", 20],
        ["baseline: db gets its 45 MB/s", xenStack(), xenBaselineConfig(), XCP01_UUID, "guest:db:predictedMBps", 45],
        ["baseline: xcp-02's dom0 declares 5 MB/s", xenStack(), xenBaselineConfig(), "xcp-02", "dom0DeclaredMBps", 5],
        ["baseline: no guest short on xcp-01", xenStack(), xenBaselineConfig(), XCP01_UUID, "shortGuests", 0],
        // dom0 wants 62, keeps 55; domUs share 55: cache is idle (not counted), web 20, db 35 (not 25: cache idle).
        ["backup in dom0: db is short", xenStack(backup), xenBaselineConfig(), XCP01_UUID, "guest:db:predictedMBps", 35],
        ["backup in dom0: one guest short", xenStack(backup), xenBaselineConfig(), XCP01_UUID, "shortGuests", 1],
        ["backup in dom0: what it costs the guests", xenStack(backup), xenBaselineConfig(), XCP01_UUID, "dom0:backup:costMBps", 10],
        [
            "no link figure for xcp-02: not checked",
            xenStack(),
            { hosts: { [XCP01_UUID]: { linkMBps: 110 } } },
            "xcp-02",
            "guest:app:predictedMBps",
            NOT_CHECKED.noLink,
        ],
        [
            "an unknown need: not checked",
            xenStack({ name: "db", edit: setTags(`perfguard:networkMBps=${UNKNOWN_VALUE}`) }),
            xenBaselineConfig(),
            XCP01_UUID,
            "guest:db:predictedMBps",
            NOT_CHECKED.unknownFact,
        ],
        ["defaultLinkMBps 60: app gets 30", xenStack(), { hosts: {}, defaultLinkMBps: 60 }, "xcp-02", "guest:app:predictedMBps", 30],
    ];
    it.each(cases)("%s", (_name, resources, config, host, key, expected) => {
        const f = figure(xenFigures(viewOf(resources), config), host, key);
        if (typeof expected === "number") {
            expect(f.value).toBeCloseTo(expected, 9);
            expect(f.notChecked).toBeUndefined();
        } else {
            expect(f.value).toBeUndefined();
            expect(f.notChecked).toBe(expected);
        }
    });

    // Beyond the measured ~11.1 MB/s link every predicted figure is extrapolated: the labels say so (report and diff print them).
    it.each([
        [
            "the baseline's 110 MB/s link: extrapolated",
            110,
            `Xen host ${XCP01_UUID} (extrapolated)`,
            "link (beyond the measured 11.1 MB/s: predictions extrapolated)",
            20,
        ],
        // dom0's 2 MB/s agent is met; web and db (both needing more) split the other 9.1 evenly.
        ["an 11.1 MB/s link: the measured one", 11.1, `Xen host ${XCP01_UUID}`, "link", (11.1 - 2) / 2],
    ])("labels the figures of %s", (_label, linkMBps, hostLabel, linkLabel, webMBps) => {
        const config = { hosts: { [XCP01_UUID]: { linkMBps } } };
        const host = xenFigures(viewOf(xenStack()), config).find((e) => e.id === XCP01_UUID.toLowerCase()) as EntityFigures;
        expect(host.label).toBe(hostLabel);
        expect(host.figures.find((f) => f.key === "linkMBps")?.label).toBe(linkLabel);
        const web = host.figures.find((f) => f.key === "guest:web:predictedMBps");
        expect(web?.label).toBe("guest web: predicted share (needs 20 MB/s)");
        expect(web?.value).toBeCloseTo(webMBps, 9);
    });

    it("names every host once, sorted, with a stable id and the URN of its first guest", () => {
        const entities = xenFigures(viewOf(xenStack()), xenBaselineConfig());
        expect(entities.map((e) => [e.system, e.kind, e.id, e.label])).toEqual([
            // Both links (110 MB/s) are beyond the measured 11.1 MB/s: the hosts' labels say so.
            ["xen", "host", XCP01_UUID, `Xen host ${XCP01_UUID} (extrapolated)`],
            ["xen", "host", "xcp-02", "Xen host xcp-02 (extrapolated)"],
        ]);
        expect(entities[1].urn).toBe(urnOf("xenorchestra:index/vm:Vm", "app"));
        for (const f of entities.flatMap((e) => e.figures)) {
            expect(f.value === undefined, f.key).toBe(f.notChecked !== undefined);
        }
    });

    it("is memoized per stack object and config", () => {
        const stack = viewOf(xenStack());
        const a = xenEvaluation(stack, xenBaselineConfig());
        expect(xenEvaluation(stack, xenBaselineConfig())).toBe(a);
        expect(xenEvaluation(stack, { ...xenBaselineConfig(), dom0Share: 0.2 })).not.toBe(a);
        expect(xenEvaluation(viewOf(xenStack()), xenBaselineConfig())).not.toBe(a);
    });
});

describe("the verdicts, the report and size xen state the evaluation's figures", () => {
    it.each([
        ["backup on xcp-01", xenStack(backup), xenBaselineConfig()],
        ["backup on xcp-02", xenStack({ add: [dom0Service("backup", "xcp-02", "backup", "60")] }), xenBaselineConfig()],
        ["a small default link", xenStack(), { hosts: DEDICATED, defaultLinkMBps: 60 }],
    ])("%s", async (_name, resources, config) => {
        const entities = xenFigures(viewOf(resources), config);
        const share = await runStackPolicy(xenGuestNetworkShare, resources, config);
        expect(share.length).toBeGreaterThan(0);
        const report = xenSection(viewOf(resources), config);
        for (const v of share) {
            const guest = v.urn!.split("::").pop()!;
            const host = entities.find((e) => e.figures.some((f) => f.key === `guest:${guest}:predictedMBps`))!;
            const predicted = figure(entities, host.id, `guest:${guest}:predictedMBps`);
            const need = figure(entities, host.id, `guest:${guest}:needMBps`);
            expect(v.message.split("\n")[0]).toContain(
                `predicted ${predicted.text.replace(/ MB\/s.*$/, "")} of the ${need.text.replace(" MB/s", "")} MB/s it needs`,
            );
            // Every link here (60, 110 MB/s) is beyond the measured 11.1 MB/s: the report marks the prediction.
            expect(report).toContain(
                `| ${guest} | ${host.id === XCP01_UUID.toLowerCase() ? XCP01_UUID : "xcp-02"} | ${need.text} | ${predicted.text} (extrapolated) | short |`,
            );
        }
        for (const v of await runStackPolicy(xenDom0Workload, resources, config)) {
            const service = v.urn!.split("::").pop()!;
            const host = entities.find((e) => e.figures.some((f) => f.key === `dom0:${service}:costMBps`))!;
            const cost = figure(entities, host.id, `dom0:${service}:costMBps`);
            const m = /cuts its \d+ guests? from ([\d.]+) to ([\d.]+) MB\/s/.exec(v.message);
            expect(m, v.message).not.toBeNull();
            expect(Number(m![1]) - Number(m![2])).toBeCloseTo(cost.value!, 1);
            expect(report).toContain(`guests ${m![1]} → ${m![2]} MB/s (extrapolated)`);
        }
    });

    it("size xen runs the same host model: 2 guests needing 40 MB/s on 60 MB/s get 30 each, as the evaluation", () => {
        const sized = sizeXen({ linkMBps: 60, guests: 2, guestMBps: 40, dom0Share: 0.5 });
        const entities = xenFigures(viewOf(xenStack()), { hosts: {}, defaultLinkMBps: 60 });
        // xcp-02's app (40) and ci (35) with dom0 5: not the same host, so compare with one model run each.
        expect(sized.lines.map((l) => l.predictedMBps)).toEqual([30, 30]);
        expect(sized.lines.every((l) => l.meetsNeed === false)).toBe(true);
        expect(figure(entities, "xcp-02", "guest:app:predictedMBps").value).toBeLessThan(40);
    });

    it("the report has no Xen section for a stack without Xen hosts", () => {
        expect(xenSection(viewOf([]), {})).toBe("");
    });
});

describe("the report's Xen section: every guest with a need is listed, extrapolated figures are labelled", () => {
    const LABEL = "extrapolated: the dom0/domU split was not measured beyond 11.1 MB/s (~100 Mb/s link, old netback)";
    const noHost: TestResource = { type: VM, name: "nohost", props: { nameLabel: "nohost", tags: ["perfguard:networkMBps=30"] } };
    const hostUnknown: TestResource = {
        type: VM,
        name: "later",
        props: { nameLabel: "later", tags: [`perfguard:xenHost=${UNKNOWN_VALUE}`, "perfguard:networkMBps=12"] },
    };
    const idleNoHost: TestResource = { type: VM, name: "quiet", props: { nameLabel: "quiet", tags: [] } };
    it.each([
        ["baseline: no unplaced row", xenStack(), [], ["| nohost |", "| later |"]],
        ["a guest with a need and no host", xenStack({ add: [noHost] }), [`| nohost | - | 30 MB/s | - | not checked: ${NOT_CHECKED.noHost} |`], []],
        [
            "a guest whose host is unknown in the preview",
            xenStack({ add: [hostUnknown] }),
            [`| later | - | 12 MB/s | - | not checked: ${NOT_CHECKED.hostUnknown} |`],
            [],
        ],
        ["a guest with no host and no need: not listed", xenStack({ add: [idleNoHost] }), [], ["| quiet |"]],
    ])("%s", (_name, resources, present, absent) => {
        const report = xenSection(viewOf(resources), xenBaselineConfig());
        for (const row of present) {
            expect(report).toContain(row);
        }
        for (const row of absent) {
            expect(report).not.toContain(row);
        }
    });
    it.each([
        ["1100 MB/s", 1100, true],
        ["110 MB/s", 110, true],
        ["11.1 MB/s (the measured link)", 11.1, false],
    ])("a %s link: labelled extrapolated in the host row and the guests' predictions", (_name, linkMBps, extrapolated) => {
        const config = { hosts: DEDICATED, defaultLinkMBps: linkMBps };
        const report = xenSection(viewOf(xenStack()), config);
        expect(report.includes(LABEL)).toBe(extrapolated);
        // web needs 20 and gets 20 on 1100 and 110 MB/s.
        expect(report.includes("| 20 MB/s (extrapolated) | met |")).toBe(extrapolated);
        expect(xenEvaluation(viewOf(xenStack()), config).hosts.every((h) => (h.extrapolated === LABEL) === extrapolated)).toBe(true);
    });
    it("lists a guest with a need and no host even when the stack has no Xen host", () => {
        const report = xenSection(viewOf([noHost]), {});
        expect(report).toContain(`| nohost | - | 30 MB/s | - | not checked: ${NOT_CHECKED.noHost} |`);
        expect(report).not.toContain("| host | link |");
        expect(xenSection(viewOf([idleNoHost]), {})).toBe("");
    });
    it("names the measured direction (receive) and the capped direction (transmit)", () => {
        const capped = xenStack({ name: "app", edit: setTags("perfguard:xenHost=xcp-02", "perfguard:networkMBps=40", "perfguard:vifCapMBps=30") });
        const report = xenSection(viewOf(capped), xenBaselineConfig());
        expect(report).toContain("as measured on downloads (receive)");
        expect(report).not.toContain("transmit share");
        expect(report).toContain("| app | xcp-02 | 40 MB/s (VIF cap 30: assumed transmit) | 30 MB/s (extrapolated) | short (its VIF cap only) |");
    });
});

describe("a bonded host: the figures, the report and the verdict state one bound", () => {
    const backupVm = (vifs: number): TestResource => ({
        type: VM,
        name: "backup",
        props: { affinityHost: "xcp-bond", networks: Array.from({ length: vifs }, () => ({ networkId: "lan" })), tags: ["perfguard:networkMBps=1500"] },
    });
    const bonded = (mode: XenBondMode) => ({ hosts: { "xcp-bond": { linkMBps: 2222, bond: { members: 2, mode }, dedicated: true } } });
    it.each<[string, number, XenBondMode, Record<string, number>, string]>([
        // 2 x 10 GbE by its aggregate: one member 1111 MB/s.
        [
            "balance-slb, 1 VIF",
            1,
            "balance-slb",
            { bondMemberMBps: 1111, linkMBps: 2222, "guest:backup:predictedMBps": 1111 },
            "short (its 1 VIF on the bond reaches 1111 MB/s)",
        ],
        ["balance-slb, 2 VIFs", 2, "balance-slb", { bondMemberMBps: 1111, linkMBps: 2222, "guest:backup:predictedMBps": 1500 }, "| met |"],
        // active-backup: the link the guests share is one member.
        [
            "active-backup",
            1,
            "active-backup",
            { bondMemberMBps: 1111, linkMBps: 1111, "guest:backup:predictedMBps": 1111 },
            "short (its 1 VIF on the bond reaches 1111 MB/s)",
        ],
        // LACP: not bounded (several flows may spread), marked in the report.
        [
            "lacp",
            1,
            "lacp",
            { bondMemberMBps: 1111, linkMBps: 2222, "guest:backup:predictedMBps": 1500 },
            "met if several flows (LACP: one flow on one member)",
        ],
    ])("%s", async (_name, vifs, mode, figures, reportText) => {
        const resources = [backupVm(vifs)];
        const config = bonded(mode);
        const entities = xenFigures(viewOf(resources), config);
        for (const [key, value] of Object.entries(figures)) {
            expect(figure(entities, "xcp-bond", key).value, key).toBeCloseTo(value, 9);
        }
        const section = xenSection(viewOf(resources), config);
        expect(section).toContain(reportText);
        expect(section).toContain(`bond 2 x 1111 MB/s ${mode} (hosts["xcp-bond"].bond)`);
        const reported = await runStackPolicy(xenGuestNetworkShare, resources, config);
        expect(reported.length).toBe(reportText.startsWith("short") ? 1 : 0);
    });
});
