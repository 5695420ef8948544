/**
 * `perfguard diff` end to end (the built binary): a deployed stack's export as base and the JSON
 * of `pulumi preview --json` as head (steps' new states, unknowns as the engine's sentinel), with
 * a change in each system. Its Markdown is the sample in docs/cli.md: PERFGUARD_WRITE_DOCS=1
 * (`PERFGUARD_WRITE_DOCS=1 npx vitest run test/cli/diff.cli.test.ts`) rewrites the sample
 * instead of comparing, as `npm run docs:examples` does for the policy pages.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { ExportResource, perfguard, ROOT, tempDir, urn, writeExport } from "./cliHarness";

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const WRITE = process.env.PERFGUARD_WRITE_DOCS === "1";
const BEGIN = "<!-- diff sample: written by test/cli/diff.cli.test.ts (PERFGUARD_WRITE_DOCS=1); edit the test, not this block. -->";
const END = "<!-- end of diff sample -->";

const ZONE = "citrix:index/zone:Zone";
const VSPHERE_VM = "vsphere:index/virtualMachine:VirtualMachine";
const SE_GROUP = "avi:index/serviceenginegroup:Serviceenginegroup";
const VS = "avi:index/virtualservice:Virtualservice";
const XEN_VM = "xenorchestra:index/vm:Vm";
const DOM0 = "perfguard:example:Dom0Service";

/** The platform stack at one state: zone RTT, the shop VS's TLS handshakes, whether a backup runs in dom0. */
function platform(o: { rttMs: string; sslTps: string; backup: boolean }): ExportResource[] {
    return [
        {
            type: ZONE,
            name: "emea-east-zone",
            inputs: {
                name: "emea-east",
                metadatas: [
                    { name: "perfguard:rttMs", value: o.rttMs },
                    { name: "perfguard:peakConcurrentLaunches", value: "40" },
                    { name: "perfguard:users", value: "6000" },
                ],
            },
        },
        ...["ddc-emea-east-01", "ddc-emea-east-02"].map((name): ExportResource => ({
            type: VSPHERE_VM,
            name,
            inputs: {
                name,
                extraConfig: {
                    "guestinfo.perfguard.citrixRole": "deliveryController",
                    "guestinfo.perfguard.citrixZone": "emea-east",
                },
            },
        })),
        {
            type: SE_GROUP,
            name: "web-seg",
            inputs: {
                name: "web",
                vcpusPerSe: "4",
                memoryPerSe: "4096",
                diskPerSe: "30",
                maxSe: "4",
                bufferSe: "1",
                haMode: "HA_MODE_SHARED",
                dedicatedDispatcherCore: "true",
            },
        },
        {
            type: VS,
            name: "shop-vs",
            inputs: {
                name: "shop",
                seGroupRef: "/api/serviceenginegroup?name=web",
                services: [{ port: "443", enableSsl: "true" }],
                markers: [
                    { key: "perfguard:sslTps", values: [o.sslTps] },
                    { key: "perfguard:l7Rps", values: ["30000"] },
                ],
            },
        },
        { type: XEN_VM, name: "jellyfin", inputs: { nameLabel: "jellyfin", affinityHost: "xcp-01", tags: ["perfguard:networkMBps=30"] } },
        { type: XEN_VM, name: "nextcloud", inputs: { nameLabel: "nextcloud", affinityHost: "xcp-01", tags: ["perfguard:networkMBps=40"] } },
        ...(o.backup
            ? [
                  {
                      type: DOM0,
                      name: "dom0-backup",
                      inputs: {
                          tags: ["perfguard:xenDomain=dom0", "perfguard:xenHost=xcp-01", "perfguard:networkMBps=60"],
                          command: "/usr/local/bin/backup",
                          schedule: UNKNOWN,
                      },
                  },
              ]
            : []),
    ];
}

/**
 * What `pulumi preview --json` prints for a program declaring `resources` over `deployed`: as the
 * real CLI (3.274), only the steps that change something (and the root stack's "same"); the
 * changeSummary counts the rest.
 */
function previewJson(file: string, resources: ExportResource[], deployed: readonly ExportResource[]): string {
    const root = urn("pulumi:pulumi:Stack", "sizing-prod");
    const before = new Map(deployed.map((r) => [r.name, JSON.stringify(r.inputs)]));
    const changed = resources.filter((r) => before.get(r.name) !== JSON.stringify(r.inputs));
    const steps = [
        { op: "same", urn: root, newState: { urn: root, custom: false, type: "pulumi:pulumi:Stack", inputs: {}, outputs: {} } },
        ...changed.map((r) => {
            const u = urn(r.type, r.name);
            // Neither a create nor an update carries outputs in a preview's newState.
            return {
                op: before.has(r.name) ? "update" : "create",
                urn: u,
                newState: { urn: u, custom: true, type: r.type, inputs: r.inputs, parent: root, dependencies: [], propertyDependencies: {} },
            };
        }),
    ];
    const summary = {
        same: resources.length + 1 - changed.length,
        update: changed.filter((r) => before.has(r.name)).length,
        create: changed.filter((r) => !before.has(r.name)).length,
    };
    fs.writeFileSync(file, JSON.stringify({ steps, diagnostics: [], duration: 1000000000, changeSummary: summary }, null, 2));
    return file;
}

const HOSTS = { "xcp-01": { linkMBps: 110, dedicated: true } };
const CONFIG = { "xen-guest-network-share": { hosts: HOSTS }, "xen-dom0-workload": { hosts: HOSTS } };

// Each run starts two pack processes: minutes on a loaded 2-core machine.
const SLOW = 300000;

describe("perfguard diff (built CLI): a stack export against a pulumi preview --json", () => {
    const dir = tempDir();
    const base = platform({ rttMs: "45", sslTps: "1000", backup: false });
    const head = platform({ rttMs: "160", sslTps: "1500", backup: true });
    writeExport(path.join(dir, "base.json"), base);
    previewJson(path.join(dir, "head.json"), head, base);
    fs.writeFileSync(path.join(dir, "perfguard-config.json"), JSON.stringify(CONFIG));
    const args = ["diff", "base.json", "head.json", "--policy-pack-config", "perfguard-config.json"];

    it(
        "text: names every changed figure with before and after, the new mandatory verdict first, and exits 1",
        async () => {
            const run = await perfguard(args, dir);
            expect(run.stderr).toBe("");
            expect(run.code).toBe(1);
            const out = run.stdout;
            expect(out.split("\n")[0]).toBe("perfguard diff: 1 new mandatory verdict, 4 new advisory verdicts; 13 figures worse, 0 better, 2 changed");
            expect(out).toContain("base.json (stack export, 8 resources) → head.json (preview --json, 9 resources; 1 value known after apply)");
            // Neither controller sets a throttle (160 ms needs one): one cause, one verdict, on the zone.
            expect(out.match(/\+ \[mandatory\] {2}citrix-broker-throttle/g)).toHaveLength(1);
            expect(out.indexOf("+ [mandatory]")).toBeLessThan(out.indexOf("+ [advisory]"));
            expect(out).toContain("RTT: 45 ms → 160 ms (+115 ms, worse)");
            // At 160 ms emea-east becomes a satellite zone: its 40 concurrent requests now reach the Site database.
            expect(out).toContain("satellite zones' concurrent requests: 0 → 40 (+40, worse)");
            // shop is the only VS of web: its need is the busiest SE's load, one row naming it (not three).
            expect(out).toMatch(/busiest SE \(limited by CPU total \(summed, not measured\); the need of shop-vs\): [\d.]+% → [\d.]+% \(\+[\d.]+ pts, worse\)/);
            expect(out.match(/58\.5% → 77\.7%/g)).toHaveLength(1);
            expect(out).toContain("dom0's declared traffic: 0 MB/s → 60 MB/s (+60 MB/s, worse)");
            expect(out).toContain("guest nextcloud: predicted share (needs 40 MB/s): 40 MB/s → 27.5 MB/s (−12.5 MB/s, worse)");
            expect(out).toContain("+ [advisory]  xen-dom0-workload  (perfguard:example:Dom0Service: dom0-backup)");
        },
        SLOW,
    );

    it(
        "--fail-on none exits 0; the same state on both sides has no change and exits 0",
        async () => {
            expect((await perfguard([...args, "--fail-on", "none"], dir)).code).toBe(0);
            const same = await perfguard(["diff", "base.json", "base.json"], dir);
            expect(same.code).toBe(0);
            expect(same.stdout.split("\n")[0]).toBe("perfguard diff: no change in figures or verdicts");
            expect(same.stdout).toMatch(/Citrix:\n {2}\d+ entities unchanged: /);
        },
        SLOW,
    );

    it(
        "a first deploy (an empty base export): every entity is new, and head's mandatory verdicts are new",
        async () => {
            fs.writeFileSync(
                path.join(dir, "empty.json"),
                JSON.stringify({ version: 3, deployment: { manifest: { time: "2026-01-01T00:00:00Z", magic: "", version: "v3.274.1" } } }),
            );
            // A first deploy's preview: every resource is a create.
            previewJson(path.join(dir, "first.json"), head, []);
            const run = await perfguard(["diff", "empty.json", "first.json", "--policy-pack-config", "perfguard-config.json", "--format", "json"], dir);
            const doc = JSON.parse(run.stdout) as { counts: { newMandatory: number; added: number; removed: number }; base: { resources: number } };
            expect(doc.base.resources).toBe(0);
            expect(doc.counts.added).toBeGreaterThanOrEqual(4);
            expect(doc.counts.removed).toBe(0);
            expect(doc.counts.newMandatory).toBe(1);
            expect(run.code).toBe(1);
        },
        SLOW,
    );

    it(
        "--plot writes one chart with both states per changed zone, SE group and Xen host",
        async () => {
            const run = await perfguard([...args, "--plot", "plots"], dir);
            for (const file of ["citrix-emea-east-zone.svg", "nsx-alb-web.svg", "xen-xcp-01.svg"]) {
                expect(run.stdout).toContain(`Plot written to ${path.join("plots", file)}.`);
                const svg = fs.readFileSync(path.join(dir, "plots", file), "utf8");
                expect(svg.startsWith("<svg")).toBe(true);
                expect(svg).toMatch(/>Before: [^<]+</);
                expect(svg).toMatch(/>After: [^<]+</);
            }
            expect(fs.readFileSync(path.join(dir, "plots", "xen-xcp-01.svg"), "utf8")).toContain("After: Xen host xcp-01");
        },
        SLOW,
    );

    it(
        "bad input: a file that is none of the three shapes exits 2 and says what it expected",
        async () => {
            fs.writeFileSync(path.join(dir, "other.json"), JSON.stringify({ hello: 1 }));
            const run = await perfguard(["diff", "base.json", "other.json"], dir);
            expect(run.code).toBe(2);
            expect(run.stderr).toContain("other.json is not a stack export");
            expect((await perfguard(["diff", "base.json", "missing.json"], dir)).stderr).toContain("cannot read missing.json: no such file");
            // A preview lists only what it changes: it is a head over a base, never a base.
            const reversed = await perfguard(["diff", "head.json", "base.json"], dir);
            expect(reversed.code).toBe(2);
            expect(reversed.stderr).toContain("head.json is the output of pulumi preview --json, which lists only the resources it changes");
        },
        SLOW,
    );

    it(
        "markdown: the PR comment, as docs/cli.md shows it",
        async () => {
            const run = await perfguard([...args, "--format", "markdown"], dir);
            expect(run.code).toBe(1);
            const md = run.stdout;
            expect(md.startsWith("<!-- perfguard-diff -->\n## perfguard diff: ❌ 1 new mandatory verdict,")).toBe(true);
            expect(md).toMatch(/### Citrix\n[\s\S]*### NSX ALB\n[\s\S]*### Xen\n[\s\S]*<details>/);
            const docFile = path.join(ROOT, "docs", "cli.md");
            const doc = fs.readFileSync(docFile, "utf8");
            const at = doc.indexOf(BEGIN);
            const end = doc.indexOf(END);
            expect(at, "docs/cli.md has the diff sample markers").toBeGreaterThan(0);
            const expected = `${doc.slice(0, at + BEGIN.length)}\n\n\`\`\`\`markdown\n${md}\`\`\`\`\n\n${doc.slice(end)}`;
            if (WRITE) {
                fs.writeFileSync(docFile, expected);
                fs.writeFileSync(path.join(ROOT, "docs", "images", "diff-comment.md"), md);
                return;
            }
            expect(doc, "docs/cli.md's diff sample is stale: run PERFGUARD_WRITE_DOCS=1 npx vitest run test/cli/diff.cli.test.ts").toBe(expected);
            // The source of the screenshot docs/images/diff-comment.png (docs/images/render-comment.mjs says how it is made).
            expect(fs.readFileSync(path.join(ROOT, "docs", "images", "diff-comment.md"), "utf8")).toBe(md);
        },
        SLOW,
    );
});
