/**
 * `perfguard diff` against the real CLI: an example deployed with `pulumi up` (stand-in
 * providers), exported with `pulumi stack export`, then its program edited and previewed with
 * `pulumi preview --json` and the pack, as docs/ci/diff.yml does. The diff of the export and the
 * preview's JSON names the figure the edit changed, with before and after, and the verdicts the
 * edit adds; and the edit is what `pulumi preview --json` itself reports as an update.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, withDeployedStack } from "../../scripts/realCli/run";

interface DiffDoc {
    counts: { newMandatory: number; worse: number };
    verdicts: Array<{ change: string; verdict: { policy: string; level: string; entity: string } }>;
    entities: Array<{ id: string; status: string; figures: Array<{ key: string; before?: { value?: number }; after?: { value?: number } }> }>;
    head: { kind: string };
}

function diff(dir: string, base: string, head: string, config: string | undefined): { code: number | null; doc: DiffDoc; stderr: string } {
    const args = [path.join(REPO_ROOT, "dist", "cli", "main.js"), "diff", base, head, "--format", "json", ...(config ? ["--policy-pack-config", config] : [])];
    const run = spawnSync(process.execPath, args, { cwd: dir, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    return { code: run.status, doc: JSON.parse(run.stdout || "{}") as DiffDoc, stderr: run.stderr };
}

function figure(doc: DiffDoc, entity: string, key: string): { before?: number; after?: number } {
    const e = doc.entities.find((x) => x.id === entity);
    const f = e?.figures.find((x) => x.key === key);
    if (!f) {
        throw new Error(`no changed figure ${key} on ${entity}: ${JSON.stringify(doc.entities.map((x) => [x.id, x.status, x.figures.map((y) => y.key)]))}`);
    }
    return { before: f.before?.value, after: f.after?.value };
}

const CASES = [
    {
        example: "citrix-satellite-zones",
        // The apac zone moves from 45 ms to 160 ms from the Site database: its controller now needs a throttle.
        edit: ["facts: { rttMs: 45, peakConcurrentLaunches: 30, users: 4000 }", "facts: { rttMs: 160, peakConcurrentLaunches: 30, users: 4000 }"],
        urnPart: "apac-zone",
        check(doc: DiffDoc, code: number | null) {
            expect(figure(doc, "apac-zone", "rttMs")).toEqual({ before: 45, after: 160 });
            const group = JSON.stringify(doc.entities.filter((e) => e.id.includes("apac")));
            const mean = figure(doc, "apac-delivery-group", "meanResponseS");
            expect(mean.before, group).toBeGreaterThan(0);
            expect(mean.after, group).toBeGreaterThan(mean.before!);
            expect(doc.verdicts.filter((v) => v.change === "appeared" && v.verdict.level === "mandatory").map((v) => v.verdict.policy)).toContain(
                "citrix-broker-throttle",
            );
            expect(doc.verdicts[0].verdict.level).toBe("mandatory");
            expect(code).toBe(1);
        },
    },
    {
        example: "xen-guest-layout",
        // nextcloud's declared need goes from 30 to 90 MB/s on xcp-ng-01.
        edit: ['facts: { networkMBps: 30 },\n        tags: ["pulumi", "files"]', 'facts: { networkMBps: 90 },\n        tags: ["pulumi", "files"]'],
        urnPart: "nextcloud",
        check(doc: DiffDoc, code: number | null) {
            const host = doc.entities.find((e) => e.figures.some((f) => f.key === "guest:nextcloud:needMBps"));
            expect(host, JSON.stringify(doc.entities)).toBeDefined();
            expect(figure(doc, host!.id, "guest:nextcloud:needMBps")).toEqual({ before: 30, after: 90 });
            const share = figure(doc, host!.id, "guest:nextcloud:predictedMBps");
            expect(share.before).toBe(30);
            expect(share.after!).toBeGreaterThan(30);
            expect(code).toBe(0); // the Xen policies are advisory: no new mandatory verdict
        },
    },
];

describe.each(CASES)("$example: deployed, then a program edit previewed with pulumi preview --json", (c) => {
    it("perfguard diff of the export and the preview names the changed figure, before and after", async () => {
        const dir = path.join(REPO_ROOT, "examples", c.example);
        const configFile = path.join(dir, "policy-config.json");
        const config = fs.existsSync(configFile) ? configFile : undefined;
        await withDeployedStack(dir, async ({ ws, programDir, exportFile, up }) => {
            expect(up.exitCode, up.stdout + up.stderr).toBe(0);
            const index = path.join(programDir, "index.ts");
            const source = fs.readFileSync(index, "utf8");
            expect(source).toContain(c.edit[0]);
            fs.writeFileSync(index, source.replace(c.edit[0], c.edit[1]));
            const preview = await ws.run(
                ["preview", "--json", "--non-interactive", "--stack", "dev", "--policy-pack", REPO_ROOT, ...(config ? ["--policy-pack-config", config] : [])],
                programDir,
            );
            // The preview's own view of the edit: an update of the edited resource.
            const json = JSON.parse(preview.stdout) as { steps: Array<{ op: string; urn: string }> };
            const edited = json.steps.filter((s) => s.urn.endsWith(`::${c.urnPart}`));
            expect(
                edited.map((s) => s.op),
                preview.stdout.slice(0, 3000) + preview.stderr,
            ).toEqual(["update"]);
            const headFile = path.join(ws.dir, "head.json");
            fs.writeFileSync(headFile, preview.stdout);
            const run = diff(ws.dir, exportFile, headFile, config);
            if (process.env.PERFGUARD_DEBUG_DIR) {
                fs.copyFileSync(headFile, path.join(process.env.PERFGUARD_DEBUG_DIR, `${c.example}-head.json`));
                fs.copyFileSync(exportFile, path.join(process.env.PERFGUARD_DEBUG_DIR, `${c.example}-base.json`));
            }
            expect(run.stderr).toBe("");
            expect(run.doc.head.kind).toBe("preview --json");
            c.check(run.doc, run.code);
        });
    });
});
