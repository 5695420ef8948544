/**
 * The emulated preview of team B's own program with PERFGUARD_INVENTORY (inherited by the pack
 * process, as from the CLI): catalog-web, referencing shared-web by the URL the network stack's
 * state has, is blocked at the combined 123.8% (docs/shared-capacity.md); without the variable
 * it is "not checked", never a silent pass.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, describe, expect, it } from "vitest";
import { spawnSync } from "child_process";
import { fixture } from "../support/inventoryStacks";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-preview-inventory-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const URL = "https://ctl.example.com/api/serviceenginegroup/serviceenginegroup-3f1c2a9e-7b41-4d2e-9a55-0c8e6b7d1f20";

/** Team B's program: project team-b, stack prod, one VS on the network stack's group. */
function program(): string {
    const dir = path.join(work, "team-b");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: team-b\nruntime: nodejs\n");
    fs.writeFileSync(path.join(dir, "Pulumi.prod.yaml"), "config: {}\n");
    fs.writeFileSync(
        path.join(dir, "index.ts"),
        `import * as avi from "@pulumi/avi";

new avi.Virtualservice("catalog-web", {
    name: "catalog-web",
    seGroupRef: "${URL}",
    services: [{ port: "443", enableSsl: "true" }],
    markers: [
        { key: "perfguard:sslTps", values: ["900"] },
        { key: "perfguard:l7Rps", values: ["20000"] },
        { key: "perfguard:sslKeyType", values: ["rsa"] },
    ],
});
`,
    );
    return dir;
}

const ROOT = path.resolve(__dirname, "../..");

/** `npm run preview -- <team-b> --stack prod` (the built preview path) with PERFGUARD_INVENTORY as given. */
function previewWith(spec: string | undefined): { status: number | null; stdout: string } {
    const env: NodeJS.ProcessEnv = { ...process.env, PERFGUARD_INVENTORY_MAX_AGE_HOURS: "100000" };
    delete env.PERFGUARD_INVENTORY;
    if (spec !== undefined) {
        env.PERFGUARD_INVENTORY = spec;
    }
    const run = spawnSync(process.execPath, [path.join(ROOT, "dist", "preview", "main.js"), program(), "--stack", "prod"], {
        cwd: work,
        env,
        encoding: "utf8",
        timeout: 240_000,
        killSignal: "SIGKILL",
    });
    return { status: run.status, stdout: run.stdout };
}

describe("team B's preview through the pack process", () => {
    it("with the network stack's and team A's exports (and team B's own): blocked at 123.8%", () => {
        const run = previewWith([fixture("network.json"), fixture("team-a.json"), fixture("team-b.json")].join(","));
        expect(run.status).toBe(1);
        expect(run.stdout).toMatch(/\[mandatory\] {2}nsx-alb-se-capacity {2}\(avi:index:Virtualservice: catalog-web\)/);
        expect(run.stdout).toContain(
            'Serviceenginegroup "shared-web": its busiest SE needs 123.8% with 2 VS shares on it (limit 80%): its VSs would drop traffic at peak.',
        );
        expect(run.stdout).toContain('team-a/prod Virtualservice "checkout-api" 75.9% of an SE');
        expect(run.stdout).not.toContain("171.8%");
    });

    it("without an inventory: not checked, at the unverified level", () => {
        const run = previewWith(undefined);
        expect(run.status).toBe(0);
        expect(run.stdout).toContain(
            '1 resource not checked: seGroupRef names an SE group by uuid this stack does not declare: other stacks\' load on it is unknown (Virtualservice "catalog-web").',
        );
    });
});
