/**
 * Shared capacity across stacks under the real CLI for Citrix and Xen (issue 32,
 * docs/shared-capacity.md), as inventory.test.ts is for NSX ALB: the owning stacks are deployed
 * with `pulumi up` (the stand-in providers) to one file backend, and the other team's
 * `pulumi preview --policy-pack` with PERFGUARD_INVENTORY=file://<backend> is judged with their
 * load; the emulated preview lists the same Policies section.
 * - Citrix: the platform stack owns zone apac (160 ms) and its two Delivery Controllers, throttled
 *   at 20 each; the desktop team's catalog is in that zone (its id from a stack reference, and
 *   perfguard:citrixZone=apac) and its group apac-eng storms 30 on its lock: above the 24 the
 *   lock sustains at 160 ms (mandatory citrix-broker-throttle) and about 14 s (citrix-brokering-capacity).
 * - Xen: team A's three guests fill a host's 111 MB/s link; team B's guest on the same host is
 *   predicted 27.75 of the 30 MB/s it needs (xen-guest-network-share).
 */
import * as fs from "fs";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CliRun, createWorkspace, policiesSection, REPO_ROOT, Workspace } from "../../scripts/realCli/run";
import { deployStack, emulatePreview, sideBySide, stageProject, verdictsOf } from "../support/realStacks";

const PLATFORM = `import * as citrix from "@pulumi/citrix";
import * as vsphere from "@pulumi/vsphere";

const zone = new citrix.Zone("apac", { name: "apac", metadatas: [{ name: "perfguard:rttMs", value: "160" }] });
for (const n of [1, 2]) {
    new vsphere.VirtualMachine(\`ddc-apac-\${n}\`, {
        name: \`ddc-apac-\${n}\`,
        resourcePoolId: "resgroup-10",
        numCpus: 4,
        extraConfig: {
            "guestinfo.perfguard.citrixRole": "deliveryController",
            "guestinfo.perfguard.citrixZone": "apac",
            "guestinfo.perfguard.throttleMaxConcurrentTransactions": "20",
        },
    });
}
export const zoneId = zone.id;
`;

const DESKTOPS = `import * as pulumi from "@pulumi/pulumi";
import * as citrix from "@pulumi/citrix";

const platform = new pulumi.StackReference("organization/vdi-platform/prod");
const catalog = new citrix.MachineCatalog("apac-catalog", {
    name: "apac-catalog",
    provisioningType: "MCS",
    allocationType: "Random",
    sessionSupport: "MultiSession",
    zone: platform.getOutput("zoneId").apply((id) => String(id)),
    metadatas: [{ name: "perfguard:citrixZone", value: "apac" }],
    provisioningScheme: { hypervisor: "xenserver-apac", hypervisorResourcePool: "rp-apac", identityType: "ActiveDirectory", numberOfTotalMachines: 200 },
});
new citrix.DeliveryGroup("apac-eng", {
    name: "apac-eng",
    associatedMachineCatalogs: [{ machineCatalog: catalog.id, machineCount: 200 }],
    metadatas: [
        { name: "perfguard:peakConcurrentLaunches", value: "30" },
        { name: "perfguard:users", value: "600" },
    ],
});
`;

const HOST = "7c1f3a52-5d0e-4b8a-9f21-6a0e2b4c8d11";

/** A team's guests on host HOST, each [name, MB/s it needs]. */
function guests(list: ReadonlyArray<readonly [string, number]>): string {
    return `import * as xoa from "@vates/pulumi-xenorchestra";

${list
    .map(
        ([name, mbps]) => `new xoa.Vm("${name}", {
    nameLabel: "${name}", cpus: 2, memoryMax: 4294967296, template: "tpl-debian-12",
    disks: [{ nameLabel: "${name}-root", size: 21474836480, srId: "sr-local" }],
    networks: [{ networkId: "net-lan" }],
    affinityHost: "${HOST}",
    tags: ["env:prod", "perfguard:networkMBps=${mbps}"],
});`,
    )
    .join("\n")}
`;
}

/** The real preview and the emulated one of the program in `dir`, with the inventory and `configFile`. */
async function bothPreviews(ws: Workspace, dir: string, configFile?: string): Promise<{ real: CliRun; emu: CliRun }> {
    const config = configFile ? ["--policy-pack-config", configFile] : [];
    const real = await ws.run(["preview", "--non-interactive", "--stack", "prod", "--policy-pack", REPO_ROOT, ...config], dir);
    return { real, emu: emulatePreview(ws, dir, config) };
}

describe("another team's zone and host, with PERFGUARD_INVENTORY=file://<backend>", () => {
    let ws: Workspace;
    let citrix: { real: CliRun; emu: CliRun };
    let xen: { real: CliRun; emu: CliRun };
    let platform: { real: CliRun; emu: CliRun };
    beforeAll(async () => {
        ws = createWorkspace({ PERFGUARD_INVENTORY_MAX_AGE_HOURS: "100000" });
        const platformDir = stageProject(ws, "vdi-platform", PLATFORM);
        await deployStack(ws, platformDir);
        await deployStack(
            ws,
            stageProject(
                ws,
                "vms-a",
                guests([
                    ["a-web-1", 30],
                    ["a-web-2", 30],
                    ["a-db", 50],
                ]),
            ),
        );
        const desktops = stageProject(ws, "desktops-apac", DESKTOPS);
        await deployStack(ws, desktops);
        const vmsB = stageProject(ws, "vms-b", guests([["b-api", 30]]));
        await deployStack(ws, vmsB);
        const hosts = path.join(ws.dir, "hosts.json");
        fs.writeFileSync(hosts, JSON.stringify({ "xen-guest-network-share": { hosts: { [HOST]: { linkMBps: 111 } } } }));
        ws.env.PERFGUARD_INVENTORY = ws.env.PULUMI_BACKEND_URL;
        citrix = await bothPreviews(ws, desktops);
        xen = await bothPreviews(ws, vmsB, hosts);
        platform = await bothPreviews(ws, platformDir);
    });
    afterAll(() => ws?.dispose());

    it("the desktop team's apac-eng is judged in the platform's zone: 30 > 24 at 160 ms (mandatory), about 14 s", () => {
        expect(citrix.real.exitCode, sideBySide(citrix.real, citrix.emu)).toBe(1);
        expect(verdictsOf(citrix.real.stdout), sideBySide(citrix.real, citrix.emu)).toEqual([
            "advisory citrix-brokering-capacity -> apac-eng",
            "mandatory citrix-broker-throttle -> apac-eng",
        ]);
        const section = policiesSection(citrix.real.stdout);
        expect(section).toContain("can put 30 concurrent requests on its lock, above the 24 it sustains");
        expect(section).toContain("at 30 concurrent launches, mean 14.1 s > 12 s");
        expect(section).toContain('zone "apac" (stack vdi-platform/prod');
        expect(section).not.toContain("zone that is not in this stack");
    });

    it("team B's guest on team A's full host is reported: 27.75 of the 30 MB/s it needs", () => {
        expect(verdictsOf(xen.real.stdout), sideBySide(xen.real, xen.emu)).toEqual(["advisory xen-guest-network-share -> b-api"]);
        const section = policiesSection(xen.real.stdout);
        expect(section).toContain("is predicted 27.75 of the 30 MB/s it needs");
        expect(section).toContain("its guests need 140 MB/s");
        expect(section).toContain("stack vms-a/prod");
    });

    it("the platform team's own preview is blocked on its zone apac: its throttles let 30 reach the desktop team's lock", () => {
        expect(platform.real.exitCode, sideBySide(platform.real, platform.emu)).toBe(1);
        expect(verdictsOf(platform.real.stdout), sideBySide(platform.real, platform.emu)).toEqual(["mandatory citrix-broker-throttle -> apac"]);
        expect(policiesSection(platform.real.stdout)).toContain("the Delivery Group is stack desktops-apac/prod's (PERFGUARD_INVENTORY");
    });

    it.each([
        ["Citrix", () => citrix],
        ["Xen", () => xen],
        ["Citrix, the platform's preview", () => platform],
    ] as const)("%s: the emulation gives the same verdicts, exit code and Policies section", (_room, runs) => {
        const both = runs();
        expect(both.emu.exitCode, sideBySide(both.real, both.emu)).toBe(both.real.exitCode);
        expect(policiesSection(both.emu.stdout), sideBySide(both.real, both.emu)).toBe(policiesSection(both.real.stdout));
    });
});
