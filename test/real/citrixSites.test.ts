/**
 * Two Citrix Sites in one stack under the real CLI (issue 32): each Site's zones, catalogs and
 * Delivery Groups on its own `citrix` provider, whose endpoint (hostname) tells the Sites apart.
 * 20,500 VDAs each stay within the 40,000 per Site; the same resources on the default provider are
 * one Site of 41,000 (citrix-site-limits). The emulated preview lists the same Policies section.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CliRun, createWorkspace, policiesSection, REPO_ROOT, Workspace } from "../../scripts/realCli/run";
import { emulatePreview, sideBySide, stageProject, verdictsOf } from "../support/realStacks";

/** A program of two Sites (zones a1-a3 and b1-b3 holding 10,000, 10,000 and 500 VDAs), on two providers or on the default one. */
function twoSites(withProviders: boolean): string {
    return `import * as pulumi from "@pulumi/pulumi";
import * as citrix from "@pulumi/citrix";

for (const [site, hostname] of [["a", "ddc.emea.example.com"], ["b", "ddc.apac.example.com"]]) {
    const provider = ${withProviders ? 'new pulumi.ProviderResource("citrix", `site-${site}`, { hostname })' : "undefined"};
    [10000, 10000, 500].forEach((machines, i) => {
        const zone = new citrix.Zone(\`\${site}\${i + 1}\`, { name: \`\${site}\${i + 1}\`, metadatas: [{ name: "perfguard:rttMs", value: "10" }] }, { provider });
        const catalog = new citrix.MachineCatalog(\`\${site}\${i + 1}-cat\`, {
            name: \`\${site}\${i + 1}-cat\`, provisioningType: "MCS", allocationType: "Random", sessionSupport: "MultiSession", zone: zone.id,
            provisioningScheme: { hypervisor: "hyp", hypervisorResourcePool: "rp", identityType: "ActiveDirectory", numberOfTotalMachines: machines },
        }, { provider });
        new citrix.DeliveryGroup(\`\${site}g\${i + 1}\`, {
            name: \`\${site}g\${i + 1}\`,
            associatedMachineCatalogs: [{ machineCatalog: catalog.id, machineCount: machines }],
        }, { provider });
    });
}
`;
}

describe("two Citrix Sites in one stack, under the real CLI", () => {
    let ws: Workspace;
    const runs: Record<string, { real: CliRun; emu: CliRun }> = {};
    beforeAll(async () => {
        ws = createWorkspace();
        for (const [name, withProviders] of [
            ["two-sites", true],
            ["one-site", false],
        ] as const) {
            const dir = stageProject(ws, name, twoSites(withProviders));
            const init = await ws.run(["stack", "init", "prod", "--non-interactive"], dir);
            expect(init.exitCode, init.stdout + init.stderr).toBe(0);
            const real = await ws.run(["preview", "--non-interactive", "--stack", "prod", "--policy-pack", REPO_ROOT], dir);
            runs[name] = { real, emu: emulatePreview(ws, dir) };
        }
    });
    afterAll(() => ws?.dispose());

    it("on two providers with their own hostnames: two Sites of 20,500 VDAs, no per-Site verdict", () => {
        const { real, emu } = runs["two-sites"];
        expect(
            verdictsOf(real.stdout).filter((v) => v.includes("citrix-site-limits")),
            sideBySide(real, emu),
        ).toEqual([]);
        expect(policiesSection(real.stdout), sideBySide(real, emu)).not.toContain("41000");
    });

    it("on the default provider: one Site of 41,000 VDAs, over its 40,000", () => {
        const { real, emu } = runs["one-site"];
        expect(
            verdictsOf(real.stdout).filter((v) => v.includes("citrix-site-limits")),
            sideBySide(real, emu),
        ).toHaveLength(1);
        expect(policiesSection(real.stdout), sideBySide(real, emu)).toContain("hold 41000 machines, more than the 40000 VDAs per Site");
    });

    it.each(["two-sites", "one-site"])("%s: the emulation gives the same exit code and Policies section", (name) => {
        const { real, emu } = runs[name];
        expect(emu.exitCode, sideBySide(real, emu)).toBe(real.exitCode);
        expect(policiesSection(emu.stdout), sideBySide(real, emu)).toBe(policiesSection(real.stdout));
    });
});
