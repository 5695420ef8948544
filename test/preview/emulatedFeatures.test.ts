/**
 * What the emulation reproduces of the engine (issue 21), on fixture programs with the perfguard
 * pack (dist/, built by npm test): transforms, stack references, aliases against the stack's
 * state, several --policy-pack flags; and what it does not reproduce, named in one line with exit 1.
 * test/real/emulation.test.ts checks the same cases against the real CLI.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterEach, describe, expect, it } from "vitest";
import { runPreview } from "../../preview/runPreview";
import { program } from "./fixtures";

const REPO = path.resolve(__dirname, "..", "..");
const ZONE = "citrix:index/zone:Zone";
const TIMEOUT = 180_000;
const saved = process.env.PULUMI_BACKEND_URL;

afterEach(() => {
    if (saved === undefined) {
        delete process.env.PULUMI_BACKEND_URL;
    } else {
        process.env.PULUMI_BACKEND_URL = saved;
    }
});

/** A file backend holding `stacks` (path under .pulumi/stacks -> resources), set for the runner. */
function useBackend(stacks: Record<string, Array<{ urn: string; type: string; outputs?: unknown }>>): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-emu-backend-"));
    for (const [file, resources] of Object.entries(stacks)) {
        const full = path.join(dir, ".pulumi", "stacks", file);
        fs.mkdirSync(path.dirname(full), { recursive: true });
        fs.writeFileSync(full, JSON.stringify({ version: 3, checkpoint: { latest: { resources } } }));
    }
    process.env.PULUMI_BACKEND_URL = `file://${dir}`;
    return dir;
}

async function preview(name: string, extra: Partial<Parameters<typeof runPreview>[0]> = {}) {
    const logs: string[] = [];
    const result = await runPreview({ programDir: program(name), packDir: REPO, onLog: (c) => logs.push(c), ...extra });
    const verdicts = result.violations.map((v) => `${v.enforcementLevel} ${v.policyName} -> ${v.resourceName}`).sort();
    const lines = logs
        .join("")
        .split("\n")
        .filter((l) => l.includes("not reproduced"));
    return { result, verdicts, lines };
}

describe("transforms", () => {
    it(
        "judges the inputs after the stack transform and the resources' transforms option",
        async () => {
            const { result, verdicts, lines } = await preview("transforms");
            expect(verdicts).toEqual([
                "advisory citrix-brokering-capacity -> far-zone",
                // Neither controller throttled: one cause, one verdict, on the zone.
                "mandatory citrix-broker-throttle -> far-zone",
                "mandatory citrix-zone-rtt-limit -> far-zone",
            ]);
            expect(result.exitCode).toBe(1);
            expect(lines).toEqual([]);
            // The recorded inputs are the transformed ones.
            const zone = result.resources.find((r) => r.type === ZONE);
            expect(JSON.stringify(zone?.inputs)).toContain("perfguard:rttMs");
        },
        TIMEOUT,
    );
});

describe("stack references", () => {
    const network = "organization/perfguard-network/network";
    const outputs = { zoneRttMs: { emea: 40, latam: 280 } };
    const root = { urn: "urn:pulumi:network::perfguard-network::pulumi:pulumi:Stack::perfguard-network-network", type: "pulumi:pulumi:Stack" };

    it(
        "reads the other stack from the file backend",
        async () => {
            useBackend({ "perfguard-network/network.json": [{ ...root, outputs }] });
            const { result, verdicts, lines } = await preview("stack-reference-site");
            expect(verdicts).toContain("mandatory citrix-zone-rtt-limit -> latam-zone");
            expect(verdicts).not.toContain("mandatory citrix-zone-rtt-limit -> emea-zone");
            expect(result.exitCode).toBe(1);
            expect(lines).toEqual([]);
        },
        TIMEOUT,
    );

    it(
        "reads a --stack-reference export instead of the backend",
        async () => {
            useBackend({});
            const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-export-")), "network.json");
            fs.writeFileSync(file, JSON.stringify({ version: 3, deployment: { resources: [{ ...root, outputs }] } }));
            const { result, verdicts, lines } = await preview("stack-reference-site", { stackReferences: { [network]: file } });
            expect(verdicts).toContain("mandatory citrix-zone-rtt-limit -> latam-zone");
            expect(result.exitCode).toBe(1);
            expect(lines).toEqual([]);
        },
        TIMEOUT,
    );

    it.each([
        ["a stack the backend does not have", {}, `no stack ${network} at`],
        [
            "an encrypted output",
            {
                "perfguard-network/network.json": [
                    { ...root, outputs: { zoneRttMs: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:x" } } },
                ],
            },
            "encrypted outputs of stack reference",
        ],
    ])(
        "%s: the RTTs are unknown (not checked), one line names it, exit 1",
        async (_label, stacks, why) => {
            useBackend(stacks);
            const { result, verdicts, lines } = await preview("stack-reference-site");
            expect(verdicts).toContain("advisory citrix-zone-rtt-limit -> latam-zone");
            expect(result.violations.find((v) => v.resourceName === "latam-zone")?.message).toContain("not checked");
            expect(lines).toHaveLength(1);
            expect(lines[0]).toContain(why);
            expect(lines[0]).toContain("npm run preview:real");
            expect(result.exitCode).toBe(1);
        },
        TIMEOUT,
    );
});

describe("aliases", () => {
    const old = (name: string) => `urn:pulumi:renamed::rename-alias::${name}`;
    const deployed = [
        { urn: old("pulumi:pulumi:Stack::rename-alias-renamed"), type: "pulumi:pulumi:Stack" },
        { urn: old(`${ZONE}::emea-zone`), type: ZONE },
    ];

    it(
        "sends the old URN the state holds, so the controllers naming the old name keep their verdicts",
        async () => {
            useBackend({ "rename-alias/renamed.json": deployed });
            const { result, verdicts, lines } = await preview("rename-alias", { stack: "renamed" });
            expect(result.resources.find((r) => r.type === ZONE)?.options.aliases).toEqual([old(`${ZONE}::emea-zone`)]);
            expect(verdicts).toEqual([
                "advisory citrix-brokering-capacity -> emea-east-zone",
                // Both controllers match the zone (unthrottled): its one verdict names them.
                "mandatory citrix-broker-throttle -> emea-east-zone",
            ]);
            expect(result.violations.find((v) => v.policyName === "citrix-broker-throttle")?.message).toContain(
                'without a throttle: "ddc-emea-01", "ddc-emea-02"',
            );
            expect(result.exitCode).toBe(1);
            expect(lines).toEqual([]);
        },
        TIMEOUT,
    );

    it(
        "sends none on a stack never deployed, as the engine (the old name then matches nothing)",
        async () => {
            // `pulumi stack init` leaves a checkpoint without resources (a stack the backend lacks is
            // the CLI's "no stack named ... found": test/preview/stackExists.test.ts).
            useBackend({ "rename-alias/renamed.json": [] });
            const { result, verdicts, lines } = await preview("rename-alias", { stack: "renamed" });
            expect(result.resources.find((r) => r.type === ZONE)?.options.aliases).toEqual([]);
            expect(verdicts).not.toContain("mandatory citrix-broker-throttle -> emea-east-zone");
            expect(result.exitCode).toBe(0);
            expect(lines).toEqual([]);
        },
        TIMEOUT,
    );

    it(
        "names aliases it cannot match (no readable state) and exits 1",
        async () => {
            process.env.PULUMI_BACKEND_URL = "https://api.pulumi.com";
            const { result, lines } = await preview("rename-alias", { stack: "renamed" });
            expect(lines).toHaveLength(1);
            expect(lines[0]).toContain(
                "aliases that rename (this stack's previous state cannot be read: the backend https://api.pulumi.com is not a file:// backend)",
            );
            expect(result.exitCode).toBe(1);
        },
        TIMEOUT,
    );
});

describe("several --policy-pack flags", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-configs-"));
    const advisory = path.join(dir, "advisory.json");
    fs.writeFileSync(advisory, JSON.stringify({ all: "advisory" }));

    it(
        "the same folder twice with one config: analyzed twice, each verdict listed twice, no warning",
        async () => {
            const { result, verdicts, lines } = await preview("transforms", { packs: [{ dir: REPO }, { dir: REPO }] });
            expect(verdicts.filter((v) => v === "mandatory citrix-zone-rtt-limit -> far-zone")).toHaveLength(2);
            expect(result.output.match(/perfguard@v/g)).toHaveLength(1);
            expect(result.exitCode).toBe(1);
            expect(lines).toEqual([]);
        },
        TIMEOUT,
    );

    it.each([
        ["advisory first", () => [{ dir: REPO, config: advisory }, { dir: REPO }], "advisory"],
        ["default first", () => [{ dir: REPO }, { dir: REPO, config: advisory }], "mandatory"],
    ])(
        "the same folder with two configs (%s): the first config, the race named, exit 1",
        async (_label, packs, level) => {
            const { result, verdicts, lines } = await preview("transforms", { packs: packs() });
            expect(verdicts.filter((v) => v === `${level} citrix-zone-rtt-limit -> far-zone`)).toHaveLength(2);
            expect(lines).toHaveLength(1);
            expect(lines[0]).toContain("given 2 times with different configs");
            expect(result.exitCode).toBe(1);
        },
        TIMEOUT,
    );
});
