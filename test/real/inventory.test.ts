/**
 * Shared capacity across stacks under the real CLI (issue 32, docs/shared-capacity.md): the
 * network stack (SE group shared-web), team A's stack (checkout-api, 75.9% of an SE) and team B's
 * own earlier deployment are deployed with `pulumi up` (the stand-in providers) to one file
 * backend; team B's `pulumi preview --policy-pack` with PERFGUARD_INVENTORY=file://<backend> is
 * blocked at the combined 123.8% (never 171.8%: its own deployment is replaced by the preview),
 * naming team A's checkout-api, and the emulated preview lists the same Policies section.
 */
import * as fs from "fs";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CliRun, createWorkspace, listedViolations, policiesSection, REPO_ROOT, Workspace } from "../../scripts/realCli/run";
import { deployStack, emulatePreview, sideBySide, stageProject, verdictsOf } from "../support/realStacks";

const GROUP_UUID = "serviceenginegroup-3f1c2a9e-7b41-4d2e-9a55-0c8e6b7d1f20";
const GROUP_URL = `https://ctl.example.com/api/serviceenginegroup/${GROUP_UUID}`;
const CLOUD = "https://ctl.example.com/api/cloud/cloud-1";
const TENANT = "https://ctl.example.com/api/tenant/admin";

/** The network team's program: SE group shared-web, at `vcpus` vCPUs per SE (4 as deployed). */
const network = (vcpus: string) => `import * as avi from "@pulumi/avi";

new avi.Serviceenginegroup("shared-web", {
    name: "shared-web", uuid: "${GROUP_UUID}", cloudRef: "${CLOUD}", tenantRef: "${TENANT}",
    vcpusPerSe: "${vcpus}", memoryPerSe: "8192", diskPerSe: "30", maxSe: "4", minScaleoutPerVs: "1", maxScaleoutPerVs: "2",
    bufferSe: "1", haMode: "HA_MODE_SHARED", algo: "PLACEMENT_ALGO_PACKED", dedicatedDispatcherCore: "true",
});
`;

/** A team's program: one VS on the network stack's group, referenced by its URL. */
function teamProgram(vs: string, tps: number, rps: number): string {
    return `import * as avi from "@pulumi/avi";

new avi.Virtualservice("${vs}", {
    name: "${vs}", seGroupRef: "${GROUP_URL}", cloudRef: "${CLOUD}", tenantRef: "${TENANT}",
    services: [{ port: "443", enableSsl: "true" }],
    markers: [
        { key: "perfguard:sslTps", values: ["${tps}"] },
        { key: "perfguard:l7Rps", values: ["${rps}"] },
        { key: "perfguard:sslKeyType", values: ["rsa"] },
    ],
});
`;
}

describe("team B's preview with PERFGUARD_INVENTORY=file://<backend>", () => {
    let ws: Workspace;
    let real: CliRun;
    let emu: CliRun;
    let blind: CliRun;
    let unreadable: CliRun;
    let shrunk: CliRun;
    let shrunkEmu: CliRun;
    beforeAll(async () => {
        ws = createWorkspace({ PERFGUARD_INVENTORY_MAX_AGE_HOURS: "100000" });
        const networkDir = stageProject(ws, "network", network("4"));
        await deployStack(ws, networkDir);
        await deployStack(ws, stageProject(ws, "team-a", teamProgram("checkout-api", 1800, 10000)));
        const teamB = stageProject(ws, "team-b", teamProgram("catalog-web", 900, 20000));
        await deployStack(ws, teamB);
        const args = ["preview", "--non-interactive", "--stack", "prod", "--policy-pack", REPO_ROOT];
        blind = await ws.run(args, teamB);
        // The pack process inherits the CLI's environment: set only for the previews below.
        ws.env.PERFGUARD_INVENTORY = ws.env.PULUMI_BACKEND_URL;
        real = await ws.run(args, teamB);
        emu = emulatePreview(ws, teamB);
        // The network team shrinks its group to 2 vCPUs per SE: judged with team A's deployed VS.
        fs.writeFileSync(path.join(networkDir, "index.ts"), network("2"));
        shrunk = await ws.run(args, networkDir);
        shrunkEmu = emulatePreview(ws, networkDir);
        ws.env.PERFGUARD_INVENTORY = path.join(ws.dir, "no-such-inventory.json");
        unreadable = await ws.run(args, teamB);
    });
    afterAll(() => ws?.dispose());

    it("the real CLI blocks catalog-web at the combined 123.8%, naming team A's checkout-api", () => {
        expect(real.exitCode, sideBySide(real, emu)).toBe(1);
        expect(verdictsOf(real.stdout), sideBySide(real, emu)).toContain("mandatory nsx-alb-se-capacity -> catalog-web");
        const section = policiesSection(real.stdout);
        expect(section).toContain("its busiest SE needs 123.8% with 2 VS shares on it (limit 80%)");
        expect(section).toContain('team-a/prod Virtualservice "checkout-api" 75.9% of an SE');
        expect(section).not.toContain("171.8%");
    });

    it("the emulation reads the same backend: the same verdicts, exit code and Policies section", () => {
        expect(emu.exitCode, sideBySide(real, emu)).toBe(real.exitCode);
        expect(verdictsOf(emu.stdout), sideBySide(real, emu)).toEqual(verdictsOf(real.stdout));
        expect(policiesSection(emu.stdout), sideBySide(real, emu)).toBe(policiesSection(real.stdout));
    });

    it("without the variable the real CLI never passes silently: not checked, naming PERFGUARD_INVENTORY", () => {
        expect(blind.exitCode, blind.stdout + blind.stderr).toBe(0);
        expect(policiesSection(blind.stdout)).toContain("other stacks' load on it is unknown");
        expect(policiesSection(blind.stdout)).not.toContain("47.9%");
    });

    it("the network team's group shrunk to 2 vCPUs is blocked, naming team A's checkout-api; the emulation agrees", () => {
        expect(shrunk.exitCode, sideBySide(shrunk, shrunkEmu)).toBe(1);
        expect(verdictsOf(shrunk.stdout), sideBySide(shrunk, shrunkEmu)).toContain("mandatory nsx-alb-se-capacity -> shared-web");
        expect(policiesSection(shrunk.stdout)).toContain('team-a/prod Virtualservice "checkout-api"');
        expect(shrunkEmu.exitCode, sideBySide(shrunk, shrunkEmu)).toBe(shrunk.exitCode);
        expect(policiesSection(shrunkEmu.stdout), sideBySide(shrunk, shrunkEmu)).toBe(policiesSection(shrunk.stdout));
    });

    it("an inventory that cannot be read is a mandatory error naming it", () => {
        expect(unreadable.exitCode, unreadable.stdout + unreadable.stderr).toBe(1);
        expect(listedViolations(policiesSection(unreadable.stdout)).some((v) => v.level === "mandatory")).toBe(true);
        expect(policiesSection(unreadable.stdout)).toContain("no-such-inventory.json");
    });
});
