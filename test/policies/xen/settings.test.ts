/**
 * The Xen settings are built from the policies' JSON Schema (policies/xen/settings.ts): a default
 * is written once, in the schema, and read from it by the evaluation and by `perfguard size xen`.
 * The grep half fails on a restated default: a DEFAULT_* constant, or a `?? <value>` / `|| <value>`
 * fallback on a setting, in the Xen room or the CLI files that read it.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { xenDefaults, xenSettings, XEN_SHARE_SCHEMA, BOND_SCHEMA } from "../../../policies/xen/settings";
import { xenDom0Workload } from "../../../policies/xen/xen-dom0-workload";
import { xenGuestNetworkShare } from "../../../policies/xen/xen-guest-network-share";
import { xenBondOf } from "../../../cli/sizeXen";

const ROOT = path.resolve(__dirname, "..", "..", "..");

/** The Xen room and every CLI file that reads its settings. */
function filesReadingXenSettings(): string[] {
    const room = fs
        .readdirSync(path.join(ROOT, "policies", "xen"))
        .filter((f) => f.endsWith(".ts"))
        .map((f) => path.join("policies", "xen", f));
    return [...room, path.join("cli", "sizeXen.ts"), path.join("cli", "report", "xen.ts"), path.join("cli", "systems", "xen.ts")];
}

/** Code lines only: comments and message text may say "default 0.5". */
function codeLines(file: string): Array<[number, string]> {
    return fs
        .readFileSync(path.join(ROOT, file), "utf8")
        .split("\n")
        .map((line, i) => [i + 1, line] as [number, string])
        .filter(([, line]) => !/^\s*(\*|\/\/|\/\*)/.test(line));
}

const SETTINGS = ["hosts", "defaultLinkMBps", "dom0Share", "linkMBps", "dom0NetworkMBps", "members", "mode", "bond"];

describe("Xen defaults are written once, in the schema (grep)", () => {
    const files = filesReadingXenSettings();
    it("covers the room and its CLI readers", () => {
        expect(files).toContain(path.join("policies", "xen", "evaluation.ts"));
        expect(files).toContain(path.join("cli", "sizeXen.ts"));
    });
    it.each(files)("%s declares no DEFAULT_* constant", (file) => {
        expect(
            codeLines(file)
                .filter(([, line]) => /\bDEFAULT_[A-Z_]+\b/.test(line))
                .map(([n, line]) => `${file}:${n}: ${line.trim()}`),
        ).toEqual([]);
    });
    it.each(files)('%s has no fallback of its own on a setting (`?? 0.5`, `|| "balance-slb"`)', (file) => {
        const fallback = new RegExp(`\\b(${SETTINGS.join("|")})\\??\\s*(\\?\\?|\\|\\|)\\s*(-?[0-9.]+|"[^"]*"|'[^']*'|null)`);
        expect(
            codeLines(file)
                .filter(([, line]) => fallback.test(line))
                .map(([n, line]) => `${file}:${n}: ${line.trim()}`),
        ).toEqual([]);
    });
    it('only settings.ts writes the schema\'s default values (0.5, "balance-slb" as a default)', () => {
        const restated = files
            .filter((f) => !f.endsWith("settings.ts"))
            .flatMap((file) =>
                codeLines(file)
                    .filter(([, line]) => /\b0\.5\b|default:\s*"balance-slb"/.test(line))
                    .map(([n, line]) => `${file}:${n}: ${line.trim()}`),
            );
        expect(restated).toEqual([]);
    });
    it("`size xen --dom0-share` takes its default from the schema", () => {
        const main = fs.readFileSync(path.join(ROOT, "cli", "sizeCommands.ts"), "utf8");
        expect(main.replace(/\s*\n\s*/g, " ")).toMatch(/"--dom0-share <fraction>"[^\n]*xenDefaults\.dom0Share,?\s*\)/);
    });
});

describe("xenSettings reads the schema's defaults", () => {
    it("both Xen policies declare the one schema, so the hosts table is accepted under either", () => {
        for (const policy of [xenGuestNetworkShare, xenDom0Workload]) {
            expect(policy.configSchema?.properties).toMatchObject(XEN_SHARE_SCHEMA);
            expect(Object.keys(policy.configSchema?.properties ?? {})).toContain("hosts");
        }
    });
    it("the defaults are the schema's", () => {
        expect(xenDefaults).toEqual({
            hosts: XEN_SHARE_SCHEMA.hosts.default,
            defaultLinkMBps: XEN_SHARE_SCHEMA.defaultLinkMBps.default,
            dom0Share: XEN_SHARE_SCHEMA.dom0Share.default,
            dom0NetworkMBps: 0,
            dedicated: false,
            bondMode: (BOND_SCHEMA.properties?.mode as { default: unknown }).default,
        });
        expect(xenDefaults).toEqual({ hosts: {}, defaultLinkMBps: null, dom0Share: 0.5, dom0NetworkMBps: 0, dedicated: false, bondMode: "balance-slb" });
    });
    // Baseline: nothing given gives the defaults; then one odd value per case falls back to its default alone.
    it.each([
        ["nothing given", undefined, {}],
        ["a dom0Share above 1", { dom0Share: 1.5 }, {}],
        ["a negative defaultLinkMBps", { defaultLinkMBps: -3 }, {}],
        ["hosts not an object", { hosts: "h1" as unknown as Record<string, never> }, {}],
        ["a dom0Share of 0.3 is kept", { dom0Share: 0.3 }, { dom0Share: 0.3 }],
        ["a defaultLinkMBps of 111 is kept", { defaultLinkMBps: 111 }, { defaultLinkMBps: 111 }],
        ["a hosts table is kept", { hosts: { h1: { linkMBps: 10 } } }, { hosts: { h1: { linkMBps: 10 } } }],
    ])("%s", (_name, config, changed) => {
        expect(xenSettings(config)).toEqual({
            hosts: xenDefaults.hosts,
            defaultLinkMBps: xenDefaults.defaultLinkMBps,
            dom0Share: xenDefaults.dom0Share,
            ...changed,
        });
    });
    it("`size xen --bond-members` without --bond-mode takes the schema's bond mode", () => {
        expect(xenBondOf(2, undefined, undefined)).toEqual({ bond: { members: 2, mode: xenDefaults.bondMode } });
        expect(xenBondOf(2, "lacp", 3)).toEqual({ bond: { members: 2, mode: "lacp" }, guestVifs: 3 });
    });
});
