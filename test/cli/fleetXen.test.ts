/**
 * One cause, one verdict across a fleet, for a Xen host (cli/fleetXen.ts): team A's stack (vms-a)
 * puts a-db, a-web-1 and a-web-2 on host 7c1f3a52, team B's (vms-b) b-api; the 111 MB/s link is
 * short for all four. The host's fix is kept once, on team A's a-db, with a Basis line naming the
 * host and each stack's short guests (sorted); b-api keeps its own verdict and points to a-db.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { dedupeXenHosts, XenHostCause } from "../../cli/fleetXen";
import type { Violation } from "../../preview/types";
import { fixture } from "../support/inventoryStacks";
import { perfguard, tempDir } from "./cliHarness";

const VM = "xenorchestra:index/vm:Vm";
const HOST = "7c1f3a52-5d0e-4b8a-9f21-6a0e2b4c8d11";
const HOST_FIX = "Fix: move a guest to another host, or give the host a faster link (its guests need 140 MB/s and dom0 0 MB/s on 111 MB/s).";
const NEED = "Basis: needs 30 MB/s (perfguard:networkMBps in tags list); host: affinityHost";

function urn(project: string, name: string): string {
    return `urn:pulumi:prod::${project}::${VM}::${name}`;
}

/** A guest's verdict: the host's lead (its fix and context) or a pointer to the stack's lead. */
function guest(project: string, name: string, lead: string | undefined, policyName = "xen-guest-network-share"): Violation {
    const fix = lead === undefined ? [HOST_FIX, NEED, "Basis: link 111 MB/s; on the host: ..."] : [`Fix: see the fix on Vm "${lead}" (same host).`, NEED];
    return {
        policyName,
        policyPackName: "perfguard",
        policyPackVersion: "0.1.0",
        enforcementLevel: "advisory",
        message: [
            "Each Xen guest should get the network bandwidth it declares.",
            `Vm "${name}" is predicted 27.75 of the 30 MB/s it needs: 2.25 MB/s short.`,
            ...fix,
        ].join("\n"),
        urn: urn(project, name),
        resourceType: VM,
        resourceName: name,
        phase: "analyzeStack",
    };
}

type Stack = { project: string; stack: string; violations: Violation[] };
const teamA = (): Stack => ({
    project: "vms-a",
    stack: "prod",
    violations: [guest("vms-a", "a-db", undefined), guest("vms-a", "a-web-1", "a-db"), guest("vms-a", "a-web-2", "a-db")],
});
const teamB = (): Stack => ({ project: "vms-b", stack: "prod", violations: [guest("vms-b", "b-api", undefined)] });
const host = (...guests: Array<[string, string]>): XenHostCause => ({ host: HOST, guests: new Set(guests.map(([p, n]) => urn(p, n))) });
const ALL = host(["vms-a", "a-db"], ["vms-a", "a-web-1"], ["vms-a", "a-web-2"], ["vms-b", "b-api"]);
const ONCE = `Basis: one cause in 2 stacks of the fleet, reported once here: Xen host "${HOST}" is short for 4 guests: vms-a/prod "a-db", "a-web-1", "a-web-2"; vms-b/prod "b-api"`;

/** Per kept violation: "project name | its Fix line | its last Basis line". */
function summary(stacks: Stack[], hosts: XenHostCause[]): string[] {
    return dedupeXenHosts(
        stacks,
        stacks.map((s) => s.violations),
        hosts,
    ).flatMap((list, i) =>
        list.map((v) => {
            const lines = v.message.split("\n");
            return `${stacks[i].project} ${v.resourceName} | ${lines.find((l) => l.startsWith("Fix:"))} | ${lines[lines.length - 1]}`;
        }),
    );
}

describe("dedupeXenHosts", () => {
    it.each([
        [
            "baseline: one stack's guests on the host, kept as they are",
            () => [teamA()],
            [ALL],
            [
                `vms-a a-db | ${HOST_FIX} | Basis: link 111 MB/s; on the host: ...`,
                `vms-a a-web-1 | Fix: see the fix on Vm "a-db" (same host). | ${NEED}`,
                `vms-a a-web-2 | Fix: see the fix on Vm "a-db" (same host). | ${NEED}`,
            ],
        ],
        [
            "two stacks' guests on one short host: the host's fix once, on team A's a-db; b-api keeps its verdict and points to it",
            () => [teamB(), teamA()],
            [ALL],
            [
                `vms-b b-api | Fix: see the fix on Vm "a-db" of stack vms-a/prod (same host). | ${NEED}`,
                `vms-a a-db | ${HOST_FIX} | ${ONCE}`,
                `vms-a a-web-1 | Fix: see the fix on Vm "a-db" (same host). | ${NEED}`,
                `vms-a a-web-2 | Fix: see the fix on Vm "a-db" (same host). | ${NEED}`,
            ],
        ],
        [
            "b-api is not short through the host (its own cap or the bond: not in the host's guests): untouched",
            () => [teamA(), teamB()],
            [host(["vms-a", "a-db"], ["vms-a", "a-web-1"], ["vms-a", "a-web-2"])],
            [
                `vms-a a-db | ${HOST_FIX} | Basis: link 111 MB/s; on the host: ...`,
                `vms-a a-web-1 | Fix: see the fix on Vm "a-db" (same host). | ${NEED}`,
                `vms-a a-web-2 | Fix: see the fix on Vm "a-db" (same host). | ${NEED}`,
                `vms-b b-api | ${HOST_FIX} | Basis: link 111 MB/s; on the host: ...`,
            ],
        ],
        [
            "another policy's verdict on the guest: untouched",
            () => [teamA(), { ...teamB(), violations: [guest("vms-b", "b-api", undefined, "perfguard-facts")] }],
            [ALL],
            [
                `vms-a a-db | ${HOST_FIX} | Basis: link 111 MB/s; on the host: ...`,
                `vms-a a-web-1 | Fix: see the fix on Vm "a-db" (same host). | ${NEED}`,
                `vms-a a-web-2 | Fix: see the fix on Vm "a-db" (same host). | ${NEED}`,
                `vms-b b-api | ${HOST_FIX} | Basis: link 111 MB/s; on the host: ...`,
            ],
        ],
    ] as const)("%s", (_name, stacks, hosts, expected) => {
        expect(summary(stacks(), [...hosts])).toEqual(expected);
    });
});

describe("perfguard check of vms-a and vms-b as one fleet (built binary): the host's fix once in every output", () => {
    it("text, --report, SARIF and JUnit: one host fix, four guest verdicts", async () => {
        const dir = tempDir();
        const config = path.join(dir, "xen.json");
        fs.writeFileSync(config, JSON.stringify({ "xen-guest-network-share": { hosts: { [HOST]: { linkMBps: 111 } } } }));
        const [report, sarif, junit] = ["report.md", "fleet.sarif", "fleet.xml"].map((f) => path.join(dir, f));
        const run = await perfguard(
            [
                "check",
                fixture("vms-a.json"),
                fixture("vms-b.json"),
                "--policy-pack-config",
                config,
                "--report",
                report,
                "--output",
                `sarif=${sarif}`,
                "--output",
                `junit=${junit}`,
            ],
            dir,
            { PERFGUARD_INVENTORY: undefined, PERFGUARD_INVENTORY_MAX_AGE_HOURS: "100000" },
        );
        expect(run.code).toBe(0);
        const count = (text: string, s: string) => text.split(s).length - 1;
        const fix = HOST_FIX.slice("Fix: ".length);
        // The text prints each violation twice (the list and the Policies section), as for any check.
        expect(count(run.stdout, fix)).toBe(2);
        expect(count(run.stdout, ONCE.slice("Basis: ".length))).toBe(2);
        expect(run.stdout).toContain('Fix: see the fix on Vm "a-db" of stack vms-a/prod (same host).');
        expect(run.stdout).toContain("0 mandatory, 4 advisory violations.");
        const md = fs.readFileSync(report, "utf8");
        expect(count(md, fix)).toBe(1);
        expect(md).toContain("0 mandatory and 4 advisory violations");
        const results = (JSON.parse(fs.readFileSync(sarif, "utf8")) as { runs: Array<{ results: Array<{ message: { text: string } }> }> }).runs[0].results;
        expect(results).toHaveLength(4);
        expect(results.filter((r) => r.message.text.includes(fix))).toHaveLength(1);
        const xml = fs.readFileSync(junit, "utf8");
        expect([...xml.matchAll(/<testcase classname="xen-guest-network-share" name="([^"]+)"/g)].map((m) => m[1]).sort()).toEqual([
            "vms-a/prod: xenorchestra:index/vm:Vm a-db",
            "vms-a/prod: xenorchestra:index/vm:Vm a-web-1",
            "vms-a/prod: xenorchestra:index/vm:Vm a-web-2",
            "vms-b/prod: xenorchestra:index/vm:Vm b-api",
        ]);
        expect(count(xml, fix)).toBe(1);
    });
});
