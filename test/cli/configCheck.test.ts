/**
 * `perfguard config check`: every way a --policy-pack-config can leave a gate other than the user
 * meant is an error naming the key, in the CLI's words where the CLI has words; a valid file exits
 * 0. The findings are checked against the pack's own GetAnalyzerInfo (one pack process for the
 * file), the exit codes and output through the built binary.
 */
import * as fs from "fs";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkPolicyConfig } from "../../cli/configCheck";
import type { AnalyzerInfo } from "../../preview/packClient";
import { packAnalyzerInfo, perfguard, ROOT, tempDir } from "./cliHarness";

let info: AnalyzerInfo;
/** What perfguard adds to the CLI's words for an invalid level, as the real CLI behaves (docs/cli.md). */
const REJECTS = "(the Pulumi CLI rejects the file: the preview fails before any policy runs";
const dir = tempDir();

beforeAll(async () => {
    info = await packAnalyzerInfo();
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, content: unknown): string {
    const file = path.join(dir, name);
    fs.writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
    return file;
}

describe("checkPolicyConfig: one problem per case, naming the key", () => {
    it("a valid file: no problem, and the levels it changes", () => {
        const found = checkPolicyConfig({ all: "advisory", "citrix-zone-rtt-limit": { enforcementLevel: "mandatory", maxRttMs: 200 } }, info);
        expect(found.problems).toEqual([]);
        expect(found.levels.map((l) => l.policy)).toEqual(["citrix-broker-throttle", "nsx-alb-se-capacity", "perfguard-facts"]);
        expect(found.levels.every((l) => l.level === "advisory" && l.defaultLevel === "mandatory")).toBe(true);
    });

    it.each([
        [
            "a misspelt name with a string level",
            { "xen-dom0-workoad": "mandatory" },
            "xen-dom0-workoad",
            '"xen-dom0-workoad" is not a policy of perfguard 0.1.0: did you mean "xen-dom0-workload"? (the Pulumi CLI accepts it and the policy meant keeps its default level)',
        ],
        [
            "a misspelt name as an object with a level",
            { "citrix-zone-rtt-limt": { enforcementLevel: "mandatory" } },
            "citrix-zone-rtt-limt",
            '"citrix-zone-rtt-limt" is not a policy of perfguard 0.1.0: did you mean "citrix-zone-rtt-limit"? (the Pulumi CLI accepts it and the policy meant keeps its default level)',
        ],
        [
            "a misspelt name as an object without a level",
            { "xen-dom0-workoad": { dom0Share: 0.4 } },
            "xen-dom0-workoad",
            'invalid enforcement level "" (the Pulumi CLI\'s error, naming no key): "xen-dom0-workoad" is not a policy of perfguard 0.1.0: did you mean "xen-dom0-workload"? ' +
                "(the Pulumi CLI rejects the file: the preview fails before any policy runs, and its settings (dom0Share) reach no policy)",
        ],
        [
            "a name like no policy",
            { ghost: "disabled" },
            "ghost",
            '"ghost" is not a policy of perfguard 0.1.0 (the Pulumi CLI accepts it and the policy meant keeps its default level)',
        ],
        [
            "an invalid string level",
            { "nsx-alb-se-capacity": "loud" },
            "nsx-alb-se-capacity",
            `parsing enforcement level for "nsx-alb-se-capacity": "loud" is not a valid enforcement level ${REJECTS})`,
        ],
        [
            "an invalid level in the object form",
            { "nsx-alb-se-capacity": { enforcementLevel: "Mandatory" } },
            "nsx-alb-se-capacity",
            `parsing enforcement level for "nsx-alb-se-capacity": "Mandatory" is not a valid enforcement level: did you mean "mandatory"? ${REJECTS})`,
        ],
        [
            "a level that is not a string",
            { "nsx-alb-se-capacity": { enforcementLevel: 1 } },
            "nsx-alb-se-capacity",
            `parsing enforcement level for "nsx-alb-se-capacity": 1 is not a valid enforcement level; must be a string ${REJECTS})`,
        ],
        // A misspelt level gets "did you mean", as a misspelt name does; the CLI rejects the whole file.
        [
            "a misspelt level for all",
            { all: "advisry" },
            "all",
            `parsing enforcement level for "all": "advisry" is not a valid enforcement level: did you mean "advisory"? ${REJECTS})`,
        ],
        [
            "a misspelt string level",
            { "citrix-zone-rtt-limit": "mandatroy" },
            "citrix-zone-rtt-limit",
            `parsing enforcement level for "citrix-zone-rtt-limit": "mandatroy" is not a valid enforcement level: did you mean "mandatory"? ${REJECTS})`,
        ],
        [
            "a misspelt level in the object form, with settings",
            { "citrix-zone-rtt-limit": { enforcementLevel: "mandatroy", maxRttMs: 200 } },
            "citrix-zone-rtt-limit",
            `parsing enforcement level for "citrix-zone-rtt-limit": "mandatroy" is not a valid enforcement level: did you mean "mandatory"? ${REJECTS}, ` +
                'and "citrix-zone-rtt-limit"\'s settings (maxRttMs) apply nowhere)',
        ],
        [
            "a misspelt level of all in the object form",
            { all: { enforcementLevel: "disabeld" } },
            "all",
            `parsing enforcement level for "all": "disabeld" is not a valid enforcement level: did you mean "disabled"? ${REJECTS})`,
        ],
        // "level" for "enforcementLevel": the CLI accepts the file, applies maxRttMs and takes "level" for a setting.
        [
            'the level under "level", misspelt too',
            { "citrix-zone-rtt-limit": { level: "mandatroy", maxRttMs: 200 } },
            "citrix-zone-rtt-limit",
            'unknown config key "level": did you mean "enforcementLevel"? And "mandatroy" is not a valid enforcement level: did you mean "mandatory"? ' +
                "(accepted keys are maxRttMs, unverified, plus enforcementLevel; the Pulumi CLI sends it on as a setting, so citrix-zone-rtt-limit keeps its level, mandatory)",
        ],
        // (Another gate kept mandatory: with none left the file would also fail the no-gate check below.)
        [
            'the level under "level" after all',
            { all: "advisory", "nsx-alb-se-capacity": "mandatory", "citrix-zone-rtt-limit": { level: "mandatory" } },
            "citrix-zone-rtt-limit",
            'unknown config key "level": did you mean "enforcementLevel"? ' +
                "(accepted keys are maxRttMs, unverified, plus enforcementLevel; the Pulumi CLI sends it on as a setting, so citrix-zone-rtt-limit keeps its level, advisory)",
        ],
        // A misspelt name too: the CLI fails with `invalid enforcement level ""` and the settings reach no policy.
        [
            'a misspelt name with the level under "level"',
            { "citrix-zone-rtt-limt": { level: "mandatroy", maxRttMs: 200 } },
            "citrix-zone-rtt-limt",
            'invalid enforcement level "" (the Pulumi CLI\'s error, naming no key): "citrix-zone-rtt-limt" is not a policy of perfguard 0.1.0: did you mean "citrix-zone-rtt-limit"? ' +
                `A level goes in "enforcementLevel", not "level". ${REJECTS}, and its settings (level, maxRttMs) reach no policy)`,
        ],
        [
            "a misspelt name with a level and settings",
            { "citrix-zone-rtt-limt": { enforcementLevel: "mandatory", maxRttMs: 200 } },
            "citrix-zone-rtt-limt",
            '"citrix-zone-rtt-limt" is not a policy of perfguard 0.1.0: did you mean "citrix-zone-rtt-limit"? ' +
                "(the Pulumi CLI accepts it and the policy meant keeps its default level; its settings (maxRttMs) reach no policy)",
        ],
        [
            "a value neither string nor object",
            { "citrix-broker-throttle": 3 },
            "citrix-broker-throttle",
            'parsing "citrix-broker-throttle": 3 is not a valid value; must be a string or object',
        ],
        [
            "a setting of the wrong type",
            { "citrix-zone-rtt-limit": { maxRttMs: "200" } },
            "citrix-zone-rtt-limit",
            "maxRttMs: Invalid type. Expected: number, given: string",
        ],
        ["a setting out of range", { "citrix-zone-rtt-limit": { maxRttMs: 0 } }, "citrix-zone-rtt-limit", "maxRttMs: Must be greater than 0"],
        [
            "a misspelt setting",
            { "citrix-zone-rtt-limit": { maxRtt: 200 } },
            "citrix-zone-rtt-limit",
            'unknown config key "maxRtt": did you mean "maxRttMs"? (accepted keys are maxRttMs, unverified, plus enforcementLevel; the Pulumi CLI sends it on and the setting is not applied)',
        ],
        [
            "an unverified level outside its enum",
            { "citrix-zone-rtt-limit": { unverified: "block" } },
            "citrix-zone-rtt-limit",
            'unverified: unverified must be one of the following: "advisory", "mandatory"',
        ],
        [
            "settings under all",
            { all: { enforcementLevel: "mandatory", unverified: "mandatory" } },
            "all",
            '"all" sets only levels: its settings (unverified) reach no policy',
        ],
        [
            "settings under all without a level",
            { all: { unverified: "mandatory" } },
            "all",
            'invalid enforcement level "" (the Pulumi CLI\'s error, naming no key): "all" takes only a level, and this one has settings (unverified) but no enforcementLevel',
        ],
        ["environments that are not strings", { environments: [1] }, "environments", '"environments" must be an array of strings, got array'],
    ] as const)("%s", (_label, config, policy, message) => {
        const found = checkPolicyConfig(config, info);
        expect(found.problems).toEqual([{ policy, message }]);
    });

    // Xen `hosts` keys: the schema takes any key, but an empty or blank one names no host (its link applies nowhere).
    const HOST_OK = { linkMBps: 111 };
    it.each([
        ["a named host (baseline)", { "xcp-01": HOST_OK }, []],
        [
            "an empty host key",
            { "": HOST_OK },
            [
                'hosts[""]: an empty host key names no host (use the host\'s UUID or name, as in affinityHost or perfguard:xenHost); its linkMBps and dom0NetworkMBps apply nowhere',
            ],
        ],
        [
            "a blank host key",
            { "xcp-01": HOST_OK, "  ": HOST_OK },
            [
                'hosts["  "]: a blank host key names no host (use the host\'s UUID or name, as in affinityHost or perfguard:xenHost); its linkMBps and dom0NetworkMBps apply nowhere',
            ],
        ],
        [
            "a tab as the host key",
            { "\t": HOST_OK },
            [
                'hosts["\\t"]: a blank host key names no host (use the host\'s UUID or name, as in affinityHost or perfguard:xenHost); its linkMBps and dom0NetworkMBps apply nowhere',
            ],
        ],
    ] as const)("xen hosts config: %s", (_label, hosts, messages) => {
        for (const policy of ["xen-guest-network-share", "xen-dom0-workload"]) {
            const found = checkPolicyConfig({ [policy]: { hosts } }, info);
            expect(found.problems).toEqual(messages.map((message) => ({ policy, message })));
        }
    });

    it("lists every problem of a file, sorted by key", () => {
        const found = checkPolicyConfig({ "xen-dom0-workoad": "mandatory", "citrix-zone-rtt-limit": { maxRttMs: -1 }, all: "loud" }, info);
        expect(found.problems.map((p) => p.policy)).toEqual(["all", "citrix-zone-rtt-limit", "xen-dom0-workoad"]);
    });

    it("names a key too long to be a typo by its length, and escapes control characters", () => {
        const found = checkPolicyConfig({ ["x".repeat(100)]: "mandatory", "a\u001bb": "advisory" }, info);
        expect(found.problems.map((p) => p.message)).toEqual([
            '"a\\\\u001bb" is not a policy of perfguard 0.1.0 (the Pulumi CLI accepts it and the policy meant keeps its default level)',
            "a key of 100 characters is not a policy of perfguard 0.1.0 (the Pulumi CLI accepts it and the policy meant keeps its default level)",
        ]);
        expect(found.problems.every((p) => !p.message.includes("\u001b") && !p.policy.includes("\u001b"))).toBe(true);
    });

    // Duplicate keys: the CLI's Go decoder keeps the last, so an earlier line is silently not applied.
    const KEEPS_LAST = "the Pulumi CLI's JSON decoder keeps the last, so the value at line";
    it.each([
        ["no duplicate (baseline)", '{\n  "citrix-zone-rtt-limit": "mandatory"\n}', []],
        [
            "a policy twice, the later one turning it off",
            '{\n  "citrix-zone-rtt-limit": "mandatory",\n  "citrix-broker-throttle": "mandatory",\n  "citrix-zone-rtt-limit": "disabled"\n}',
            [{ policy: "citrix-zone-rtt-limit", message: `duplicate key "citrix-zone-rtt-limit" at line 4 (first at line 2): ${KEEPS_LAST} 2 is not applied` }],
        ],
        [
            "a setting twice",
            '{"citrix-zone-rtt-limit": {\n "maxRttMs": 200,\n "maxRttMs": 900\n}}',
            [
                {
                    policy: "citrix-zone-rtt-limit",
                    message: `duplicate key "maxRttMs" in "citrix-zone-rtt-limit" at line 3 (first at line 2): ${KEEPS_LAST} 2 is not applied`,
                },
            ],
        ],
        [
            "two duplicates: each one",
            '{"all": "mandatory",\n"all": "mandatory",\n"xen-dom0-workload": "advisory",\n"xen-dom0-workload": "advisory"}',
            [
                { policy: "all", message: `duplicate key "all" at line 2 (first at line 1): ${KEEPS_LAST} 1 is not applied` },
                { policy: "xen-dom0-workload", message: `duplicate key "xen-dom0-workload" at line 4 (first at line 3): ${KEEPS_LAST} 3 is not applied` },
            ],
        ],
    ])("duplicate keys: %s", (_label, text, problems) => {
        expect(checkPolicyConfig(JSON.parse(text), info, { text }).problems).toEqual(problems);
    });

    // "all" sets every policy's level first, then each policy's own key (the CLI's applyConfig).
    const ALL_NOTE = (names: string[]) => ({
        policy: "all",
        message:
            `"disabled" turns off every policy this file does not set itself: ${names.join(", ")} ` +
            `(${names.length} of ${info.policies.length}; the Pulumi CLI applies "all" first, then each policy's own key)`,
    });
    const everyPolicy = () => info.policies.map((p) => p.name).sort();
    const GATES = ["citrix-broker-throttle", "citrix-zone-rtt-limit", "nsx-alb-se-capacity", "perfguard-facts"];
    const NO_GATE = (how: string) =>
        `no policy is mandatory after this file: every mandatory gate is off (${how}): a preview with this config never fails on a verdict`;
    it.each([
        ["a file that turns nothing off (baseline)", { "citrix-zone-rtt-limit": { maxRttMs: 200 } }, false, [], []],
        [
            "all disabled",
            { all: "disabled" },
            false,
            [{ policy: "", message: `${NO_GATE(`disabled: ${GATES.join(", ")}`)}; pass --allow-gates-off if that is meant` }],
            () => [ALL_NOTE(everyPolicy())],
        ],
        [
            "all disabled, with --allow-gates-off",
            { all: "disabled" },
            true,
            [],
            () => [{ policy: "", message: `${NO_GATE(`disabled: ${GATES.join(", ")}`)} (allowed by --allow-gates-off)` }, ALL_NOTE(everyPolicy())],
        ],
        [
            "all disabled but one gate kept",
            { all: "disabled", "citrix-zone-rtt-limit": "mandatory" },
            false,
            [],
            () => [ALL_NOTE(everyPolicy().filter((n) => n !== "citrix-zone-rtt-limit"))],
        ],
        [
            "all in the object form",
            { all: { enforcementLevel: "disabled" } },
            false,
            [{ policy: "", message: `${NO_GATE(`disabled: ${GATES.join(", ")}`)}; pass --allow-gates-off if that is meant` }],
            () => [ALL_NOTE(everyPolicy())],
        ],
        [
            "one policy disabled",
            { "xen-dom0-workload": "disabled" },
            false,
            [],
            [{ policy: "", message: 'turned off by their own "disabled": xen-dom0-workload (no verdicts from it)' }],
        ],
        [
            "two gates disabled, the others kept",
            { "citrix-zone-rtt-limit": "disabled", "nsx-alb-se-capacity": { enforcementLevel: "disabled" } },
            false,
            [],
            [{ policy: "", message: 'turned off by their own "disabled": citrix-zone-rtt-limit, nsx-alb-se-capacity (no verdicts from them)' }],
        ],
        [
            "every gate disabled by its own key",
            Object.fromEntries(GATES.map((g) => [g, "disabled"])),
            false,
            [{ policy: "", message: `${NO_GATE(`disabled: ${GATES.join(", ")}`)}; pass --allow-gates-off if that is meant` }],
            [{ policy: "", message: `turned off by their own "disabled": ${GATES.join(", ")} (no verdicts from them)` }],
        ],
        [
            "all advisory: nothing blocks",
            { all: "advisory" },
            false,
            [{ policy: "", message: `${NO_GATE(`advisory: ${GATES.join(", ")}`)}; pass --allow-gates-off if that is meant` }],
            [],
        ],
    ] as const)("gates turned off: %s", (_label, config, allowGatesOff, problems, notes) => {
        const found = checkPolicyConfig(config, info, { allowGatesOff });
        expect(found.problems).toEqual(problems);
        expect(found.notes).toEqual(typeof notes === "function" ? notes() : notes);
    });

    it("a file that is not an object", () => {
        expect(checkPolicyConfig([1], info).problems).toEqual([{ policy: "", message: "the file must be a JSON object keyed by policy name, not array" }]);
    });
});

describe("perfguard config check through the binary", () => {
    it("exits 1 and names the key on a misspelt policy, in text and JSON", async () => {
        const file = write("typo.json", { "xen-dom0-workoad": "mandatory" });
        const text = await perfguard(["config", "check", file]);
        expect(text.code).toBe(1);
        expect(text.stdout).toContain('error: xen-dom0-workoad: "xen-dom0-workoad" is not a policy of perfguard 0.1.0: did you mean "xen-dom0-workload"?');
        expect(text.stdout).toContain("1 problem: this config would not do what it says");
        const json = await perfguard(["config", "check", file, "--json"]);
        expect(json.code).toBe(1);
        const doc = JSON.parse(json.stdout) as { valid: boolean; problems: { policy: string }[] };
        expect(doc.valid).toBe(false);
        expect(doc.problems.map((p) => p.policy)).toEqual(["xen-dom0-workoad"]);
    });

    it("exits 1 on an empty Xen host key, naming the policy and the field", async () => {
        const text = await perfguard(["config", "check", write("empty-host.json", { "xen-guest-network-share": { hosts: { "": { linkMBps: 111 } } } })]);
        expect(text.code).toBe(1);
        expect(text.stdout).toContain('error: xen-guest-network-share: hosts[""]: an empty host key names no host');
        expect(text.stdout).toContain("1 problem: this config would not do what it says");
    });

    it('exits 1 on a duplicate key and on {"all": "disabled"}, 0 on the latter with --allow-gates-off', async () => {
        const dup = await perfguard([
            "config",
            "check",
            write("dup.json", '{\n  "citrix-zone-rtt-limit": "mandatory",\n  "citrix-zone-rtt-limit": "disabled"\n}'),
        ]);
        expect(dup.code).toBe(1);
        expect(dup.stdout).toContain('error: citrix-zone-rtt-limit: duplicate key "citrix-zone-rtt-limit" at line 3 (first at line 2)');
        const allOff = write("all-off.json", { all: "disabled" });
        const refused = await perfguard(["config", "check", allOff]);
        expect(refused.code).toBe(1);
        expect(refused.stdout).toContain("error: no policy is mandatory after this file: every mandatory gate is off (disabled: citrix-broker-throttle, ");
        expect(refused.stdout).toContain('note: all: "disabled" turns off every policy this file does not set itself: ');
        const allowed = await perfguard(["config", "check", allOff, "--allow-gates-off"]);
        expect(allowed.code).toBe(0);
        expect(allowed.stdout).toContain("(allowed by --allow-gates-off)");
        expect(allowed.stdout).toContain("ok: every key names a policy");
    });

    it("exits 0 on every example's policy-config.json and on an empty file", async () => {
        const configs = fs
            .readdirSync(path.join(ROOT, "examples"))
            .map((d) => path.join(ROOT, "examples", d, "policy-config.json"))
            .filter((f) => fs.existsSync(f));
        expect(configs.length).toBeGreaterThan(0);
        for (const file of [...configs, write("empty.json", "")]) {
            const run = await perfguard(["config", "check", file]);
            expect(run.stdout + run.stderr, file).toContain("ok: every key names a policy");
            expect(run.code).toBe(0);
        }
    });

    // A missing or malformed input file is a usage error, exit 2 (cli/errors.ts, docs/cli.md), with
    // or without --json; the message names the path and never echoes the file's text.
    it.each([
        [
            "not JSON",
            () => write("bad.json", "{ nope SECRET-IN-FILE"),
            (f: string) => `error: policy pack config ${f} is not valid JSON (syntax error at character 2); the Pulumi CLI fails the preview on it too`,
        ],
        ["cut short", () => write("short.json", '{"all": '), (f: string) => `error: policy pack config ${f} is not valid JSON (syntax error`],
        ["missing", () => path.join(dir, "missing.json"), (f: string) => `error: cannot read policy pack config ${f}: no such file`],
        ["a folder", () => dir, (f: string) => `error: cannot read policy pack config ${f}: it is a directory`],
    ] as const)("exits 2 on a file that is %s", async (_label, make, message) => {
        const file = make();
        for (const extra of [[], ["--json"]]) {
            const run = await perfguard(["config", "check", file, ...extra]);
            expect(run.code, run.stdout + run.stderr).toBe(2);
            expect(run.stderr).toContain(message(file));
            expect(run.stderr).not.toContain("SECRET-IN-FILE");
            expect(run.stdout).toBe("");
        }
    });
});
