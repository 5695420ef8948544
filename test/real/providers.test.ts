/**
 * The stand-in provider plugins (preview/providers) under the REAL Pulumi CLI: every example is
 * previewed with `pulumi preview --policy-pack <perfguard>` on a local file backend, no network,
 * no plugin download, and
 * - the CLI's verdicts (policy, level, resource) and exit code equal expected-violations.json;
 * - what the engine hands analyzers is what the stand-ins promise (preview/providers/schema.ts):
 *   Analyze inputs carry the schema defaults, AnalyzeStack outputs are the preview Create result
 *   (computed attributes the program left unset are unknown). A second pack records both.
 *
 * Needs the CLI built by `npm run real-cli:setup` (Go): PERFGUARD_REAL_CLI_BIN, default
 * <repo>/.cache/real-cli/v3.274.1/bin. Without it the suite is skipped with a message.
 * Run: `npm run test:real` (or `npm run build && npx vitest run --config vitest.real.config.mts
 * test/real/providers.test.ts`).
 *
 * Uses scripts/realCli/run.ts's workspace (offline PULUMI_HOME and backend) and its `Policies:`
 * parser; the stand-ins are installed into that PULUMI_HOME's plugin cache with ambient plugins
 * off, so the CLI prints no "using pulumi-resource-<pkg> from $PATH" warning.
 */
import * as fs from "fs";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installStandInPlugins } from "../../preview/providers/install";
import { checkInputs, previewOutputs, Props, UNKNOWN } from "../../preview/providers/schema";
import {
    createWorkspace,
    listedViolations,
    policiesSection,
    realCliAvailable,
    realCliBinDir,
    REPO_ROOT,
    stageProgram,
    Workspace,
} from "../../scripts/realCli/run";

const repo = REPO_ROOT;
const present = realCliAvailable();
if (!present) {
    console.warn(
        `test/real/providers.test.ts skipped: no Pulumi CLI and language host in ${realCliBinDir()} ` +
            "(build them with `npm run real-cli:setup`, which needs Go, or set PERFGUARD_REAL_CLI_BIN)",
    );
}

/** Marks an unknown value in the recording pack's dump (the policy SDK throws on reading one). */
const UNKNOWN_MARK = "<unknown>";

interface Example {
    name: string;
    config?: string;
}
/** Every bundled example (the same list as test/real/cli.test.ts: each folder with expected violations). */
const EXAMPLES: Example[] = fs
    .readdirSync(path.join(REPO_ROOT, "examples"))
    .sort()
    .filter((name) => fs.existsSync(path.join(REPO_ROOT, "examples", name, "expected-violations.json")))
    .map((name) => (fs.existsSync(path.join(REPO_ROOT, "examples", name, "policy-config.json")) ? { name, config: "policy-config.json" } : { name }));

interface Verdict {
    policy: string;
    resource: string | null;
    level: string;
}
interface Dumped {
    type: string;
    name: string;
    props: Props;
}
interface Dump {
    inputs: Dumped[];
    stack: Dumped[];
}

let ws: Workspace | undefined;

async function run(args: string[], cwd: string): Promise<{ status: number; out: string }> {
    const r = await ws!.run(args, cwd);
    return { status: r.exitCode, out: `${r.stdout}${r.stderr}` };
}

function writeJson(file: string, value: unknown): void {
    fs.writeFileSync(file, JSON.stringify(value, null, 2));
}

/** A pack folder for the recording pack (index.js moves to the pack's folder first, as perfguard's does). */
function recorderPack(dir: string): void {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "PulumiPolicy.yaml"), "runtime: nodejs\n");
    writeJson(path.join(dir, "package.json"), { name: "recorder", version: "0.0.1", main: "index.js" });
    fs.symlinkSync(path.join(repo, "node_modules"), path.join(dir, "node_modules"));
    fs.writeFileSync(path.join(dir, "index.js"), `process.chdir(__dirname);\n${RECORDER}`);
}

/**
 * The recording pack: writes, to $PERFGUARD_DUMP_FILE, each resource's Analyze inputs and its
 * AnalyzeStack props, with unknown values as UNKNOWN_MARK.
 */
const RECORDER = `
const fs = require("fs");
const { PolicyPack } = require("@pulumi/policy");
const plain = (v) => {
    if (v === null || typeof v !== "object") return v;
    const out = Array.isArray(v) ? [] : {};
    for (const k of Object.keys(v)) {
        try { out[k] = plain(v[k]); } catch (e) { out[k] = ${JSON.stringify(UNKNOWN_MARK)}; }
    }
    return out;
};
const dump = { inputs: [], stack: [] };
const save = () => fs.writeFileSync(process.env.PERFGUARD_DUMP_FILE, JSON.stringify(dump));
new PolicyPack("recorder", { policies: [
    { name: "record-inputs", description: "records Analyze inputs", enforcementLevel: "advisory",
      validateResource: (args) => { dump.inputs.push({ type: args.type, name: args.name, props: plain(args.props) }); save(); } },
    { name: "record-stack", description: "records AnalyzeStack props", enforcementLevel: "advisory",
      validateStack: (args) => { for (const r of args.resources) dump.stack.push({ type: r.type, name: r.name, props: plain(r.props) }); save(); } },
] });
`;

/** perfguard's verdicts in the CLI's `Policies:` section (the recorder lists none). */
function verdicts(out: string): Verdict[] {
    return (
        listedViolations(policiesSection(out))
            // A stack-wide violation is listed on the root stack; expected-violations.json says null.
            .map((v) => ({ policy: v.policy, resource: v.type === "pulumi:pulumi:Stack" ? null : (v.name ?? ""), level: v.level }))
    );
}

const byKey = (a: Verdict, b: Verdict) => `${a.policy} ${a.resource} ${a.level}`.localeCompare(`${b.policy} ${b.resource} ${b.level}`);

/** Unknown sentinels as the recording pack shows them. */
function asDumped(props: Props): Props {
    return JSON.parse(JSON.stringify(props, (_k, v) => (v === UNKNOWN ? UNKNOWN_MARK : v))) as Props;
}

describe.skipIf(!present)("stand-in providers under the real Pulumi CLI", () => {
    const results = new Map<string, { status: number; out: string; dump: Dump }>();

    beforeAll(async () => {
        if (!fs.existsSync(path.join(repo, "dist", "index.js"))) {
            throw new Error("dist/ is missing: run npm run build first");
        }
        ws = createWorkspace();
        installStandInPlugins(ws.env.PULUMI_HOME as string, repo);
        // The plugin cache, not the launchers on PATH (see preview/providers/install.ts).
        ws.env.PULUMI_IGNORE_AMBIENT_PLUGINS = "true";
        const recorder = path.join(ws.dir, "recorder");
        recorderPack(recorder);
        const empty = path.join(ws.dir, "empty-config.json");
        writeJson(empty, {});

        for (const example of EXAMPLES) {
            // A copy outside the repository, staged as scripts/realCli/staging.ts stages every program.
            const { dir } = stageProgram(path.join(repo, "examples", example.name), ws.dir);
            const init = await run(["stack", "init", "real", "--non-interactive"], dir);
            expect(init.status, init.out).toBe(0);
            const dumpFile = path.join(ws.dir, `${example.name}.dump.json`);
            ws.env.PERFGUARD_DUMP_FILE = dumpFile;
            const args = ["preview", "--non-interactive", "--policy-pack", repo, "--policy-pack", recorder];
            if (example.config) {
                // One config file per pack, in the order of --policy-pack.
                args.push("--policy-pack-config", path.join(repo, "examples", example.name, example.config), "--policy-pack-config", empty);
            }
            const r = await run(args, dir);
            const dump = JSON.parse(fs.existsSync(dumpFile) ? fs.readFileSync(dumpFile, "utf8") : '{"inputs":[],"stack":[]}') as Dump;
            results.set(example.name, { ...r, dump });
            fs.writeFileSync(path.join(ws.dir, `${example.name}.out.txt`), `${r.out}\nexit ${r.status}\n`);
        }
    }, 900_000);

    afterAll(() => {
        if (ws && !process.env.PERFGUARD_KEEP_TMP) {
            ws.dispose();
        } else if (ws) {
            console.log(`real CLI outputs kept in ${ws.dir}`);
        }
    });

    for (const example of EXAMPLES) {
        describe(example.name, () => {
            it("gives the expected verdicts and exit code, with the stand-ins and no download or ambient plugin", () => {
                const r = results.get(example.name);
                expect(r, "the preview ran").toBeDefined();
                const { status, out } = r!;
                const expected = (JSON.parse(fs.readFileSync(path.join(repo, "examples", example.name, "expected-violations.json"), "utf8")) as Verdict[]).map(
                    ({ policy, resource, level }) => ({ policy, resource, level }),
                );
                expect(verdicts(out).sort(byKey), out).toEqual([...expected].sort(byKey));
                expect(status, out).toBe(expected.some((v) => v.level === "mandatory") ? 1 : 0);
                expect(out).not.toMatch(/from \$PATH|downloading|failed to download|no resource plugin|failed to start/i);
            });

            it("hands Analyze the checked inputs and AnalyzeStack the preview Create outputs", () => {
                const { dump } = results.get(example.name)!;
                const custom = dump.stack.filter((s) => !s.type.startsWith("pulumi:") && !s.type.startsWith("perfguard:"));
                expect(custom.length).toBeGreaterThan(0);
                for (const s of custom) {
                    const inputs = dump.inputs.find((i) => i.type === s.type && i.name === s.name);
                    expect(inputs, `${s.type} ${s.name} reached Analyze`).toBeDefined();
                    // Check is idempotent on what the engine already checked, and the outputs are
                    // exactly the preview Create result of those inputs.
                    expect(checkInputs(s.type, inputs!.props)).toEqual(inputs!.props);
                    expect(s.props, `${s.type} ${s.name}`).toEqual(asDumped(previewOutputs(s.type, inputs!.props)));
                }
            });
        });
    }

    it("applies Avi SDKv2 defaults in Check and leaves Avi's computed-unset attributes unknown", () => {
        const { dump } = results.get("nsx-alb-se-groups")!;
        const group = dump.inputs.find((i) => i.name === "bulk-se-group")!;
        // Defaults of resource_avi_serviceenginegroup.go the example does not set.
        expect(group.props.activeStandby).toBe("false");
        expect(group.props.appCachePercent).toBe("10");
        const groupOut = dump.stack.find((s) => s.name === "bulk-se-group")!;
        expect(groupOut.props.uuid).toBe(UNKNOWN_MARK);
        // Optional+Computed without a default: unknown until the controller answers.
        expect(groupOut.props.dedicatedDispatcherCore).toBe(UNKNOWN_MARK);
        expect("dedicatedDispatcherCore" in group.props).toBe(false);
        const vs = dump.stack.find((s) => s.name === "pg-tcp-vs")!;
        expect(vs.props.vsvipCloudConfigCksum).toBe(UNKNOWN_MARK);
    });

    it("leaves Citrix (plugin framework) defaults to the plan: absent from Analyze inputs, present in outputs", () => {
        const { dump } = results.get("citrix-satellite-zones")!;
        const dg = dump.inputs.find((i) => i.type === "citrix:index/deliveryGroup:DeliveryGroup")!;
        expect("loadBalancingType" in dg.props).toBe(false);
        const dgOut = dump.stack.find((s) => s.name === dg.name)!;
        expect(dgOut.props.loadBalancingType).toBe("None");
        // Optional+Computed and left unset by the program (it sets name): unknown in the preview.
        const zone = dump.stack.find((s) => s.name === "latam-zone")!;
        expect(zone.props.name).toBe("latam");
        expect(zone.props.resourceLocationId).toBe(UNKNOWN_MARK);
    });
});
