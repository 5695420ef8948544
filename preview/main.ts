/**
 * `npm run preview -- <program dir> [--policy-pack <dir> [--policy-pack-config <file.json>]]...
 * [--stack-reference <org/project/stack>=<export.json>]... [--record <out.json>] [--stack <name>]
 * [--show-secrets] [--explain]`: prints what `pulumi preview --policy-pack` would
 * print about policies and exits as the CLI does: 1 on a mandatory violation, a failing program, bad
 * policy config or a program directory it cannot run; 2 on bad arguments to this command. Errors are one `error: ...` line (plus the
 * program's own messages); stack traces only for internal errors with PERFGUARD_DEBUG=1.
 */
import { parseArgs } from "util";
import { DEBUG_ENV, debugEnabled, formatCliError, ProgramFailure } from "./errors";
import { formatExplanation } from "./explainReport";
import { runPreview } from "./runPreview";
import { deliver, needsResults } from "../cli/results/options";
import { previewResults, RESULT_ARGS, RESULT_HELP, RESULT_USAGE, resultArgs } from "./resultArgs";
import { TARGET_OPTIONS, targetOptionsNotReproduced } from "./targetOptions";

const USAGE =
    "usage: npm run preview -- <program dir> [--policy-pack <dir> [--policy-pack-config <file.json>]]... " +
    "[--stack-reference <org/project/stack>=<export.json>]... [--record <out.json> [--show-secrets]] [--stack <name>] [--diff] [--explain] " +
    "[--target <urn>]... [--target-dependents] [--exclude <urn>]... [--exclude-dependents] [--replace <urn>]... " +
    RESULT_USAGE;

const HELP = `${USAGE}

Runs the Pulumi Node.js program in <program dir> (Pulumi.yaml's main, else package.json's entry,
else index.js or index.ts) under preview mocks, sends its resources to the policy pack as the
Pulumi CLI does, and prints the violations in the CLI's format: the progress view (the
\`Policies:\` section, then \`Resources:\` unless a mandatory violation was reported), or with
--diff the diff view (one event line per violation, then \`Resources:\` and the packs run).

Each --policy-pack runs, in the order given, with the --policy-pack-config of the same position
(give one for every pack, or none), as the CLI does. Transforms run as the engine runs them.
A StackReference reads the other stack's outputs from --stack-reference's export file, else from
the file backend the CLI would use (PULUMI_BACKEND_URL, or pulumi login's file:// backend); what
cannot be read is unknown. Aliases are matched against this stack's state in that backend.
A program feature the emulation cannot reproduce (an unreadable stack reference, aliases without
readable state, invokes, reads of existing resources, multi-language components) is named in
one "not reproduced" line and makes the preview exit 1: the CLI might have blocked
(npm run preview:real gives its verdicts). A program in another language (runtime: yaml,
python, ...) is refused with exit 2. --target (-t), --target-dependents, --exclude,
--exclude-dependents and --replace are accepted as the CLI accepts them and not reproduced (what
the engine sends then depends on the stack's state): each is named in a "not reproduced" line,
the whole program is previewed, and the preview exits 1.

--record writes the resources sent to the packs in \`pulumi stack export\` shape, secrets
redacted (a ciphertext that says so, as the CLI writes them without --show-secrets); with
--show-secrets the file holds their plaintext, as \`pulumi stack export --show-secrets\`.

Exit codes, as the Pulumi CLI's: 0 no mandatory violation; 1 a mandatory violation, the program
failed (it threw, a registration or promise rejected; pulumi.log.error alone exits 0, as the CLI's preview does), bad policy config
(unreadable file, an invalid level, a value its schema rejects), a program directory that cannot
be run (missing, no Pulumi.yaml, bad main), or a policy pack directory that is missing or has no
PulumiPolicy.yaml; 2 bad arguments to this command, or a program in another language than nodejs;
6 a --stack the file backend does not hold ("no stack named 'x' found", as the CLI), and, where
no backend can be read (none set, or not file://), a --stack without its Pulumi.<stack>.yaml (a
"perfguard:" line lists the stacks whose config is there; commit an empty Pulumi.<stack>.yaml to
judge a stack that has no config). On a file backend --stack follows the CLI's rules: the
organization must be "organization" (exit 1, the CLI's line).

Environment:
    ${DEBUG_ENV}=1   print stack traces for internal errors (user errors are always one line)
`;

async function main(argv: string[]): Promise<number> {
    let parsed;
    try {
        parsed = parseArgs({
            args: argv,
            allowPositionals: true,
            options: {
                "policy-pack": { type: "string", multiple: true },
                "policy-pack-config": { type: "string", multiple: true },
                "stack-reference": { type: "string", multiple: true },
                record: { type: "string" },
                "show-secrets": { type: "boolean" },
                stack: { type: "string" },
                explain: { type: "boolean" },
                diff: { type: "boolean" },
                help: { type: "boolean", short: "h" },
                ...RESULT_ARGS,
                ...TARGET_OPTIONS,
            },
        });
    } catch (err) {
        process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
        return 2;
    }
    if (parsed.values.help) {
        process.stdout.write(HELP + RESULT_HELP);
        return 0;
    }
    if (parsed.positionals.length !== 1) {
        process.stderr.write(USAGE + "\n");
        return 2;
    }
    const packDirs = parsed.values["policy-pack"] ?? [];
    const configs = parsed.values["policy-pack-config"] ?? [];
    // The CLI's pairing rule (validatePolicyPackConfig): the n-th config is the n-th pack's.
    // Without --policy-pack the pack is this repository's, and one config goes with it.
    if (configs.length > 0 && configs.length !== Math.max(1, packDirs.length)) {
        process.stderr.write(`error: the number of "--policy-pack-config" flags must match the number of "--policy-pack" flags\n`);
        return 2;
    }
    const results = resultArgs(parsed.values);
    if (typeof results === "string") {
        process.stderr.write(`${results}\n${USAGE}\n`);
        return 2;
    }
    const stackReferences: Record<string, string> = {};
    for (const entry of parsed.values["stack-reference"] ?? []) {
        const eq = entry.indexOf("=");
        if (eq <= 0 || eq === entry.length - 1) {
            process.stderr.write(`error: --stack-reference ${entry}: expected <stack name>=<export file>\n${USAGE}\n`);
            return 2;
        }
        stackReferences[entry.slice(0, eq)] = entry.slice(eq + 1);
    }
    try {
        const result = await runPreview({
            programDir: parsed.positionals[0],
            ...(packDirs.length > 0 ? { packs: packDirs.map((dir, i) => ({ dir, config: configs[i] })) } : { policyPackConfig: configs[0] }),
            stackReferences,
            record: parsed.values.record,
            showSecrets: parsed.values["show-secrets"],
            stack: parsed.values.stack,
            // Passes in the results come from the pack's explanation.
            explain: parsed.values.explain || needsResults(results),
            view: parsed.values.diff ? "diff" : "progress",
            optionsNotReproduced: targetOptionsNotReproduced(parsed.values),
        });
        const text = result.output + (result.explanation && parsed.values.explain ? "\n" + formatExplanation(result.explanation) : "");
        deliver(results, text, needsResults(results) ? previewResults(result, results.programRoot) : undefined, {
            out: (t) => process.stdout.write(t),
            err: (t) => process.stderr.write(t),
        });
        return result.exitCode;
    } catch (err) {
        // A PreviewError is the user's to fix: one line. Anything else is internal: its stack
        // only with PERFGUARD_DEBUG=1.
        if (err instanceof ProgramFailure) {
            process.stdout.write(err.output);
        }
        const { text, exitCode } = formatCliError(err, debugEnabled());
        process.stderr.write(text);
        return exitCode;
    }
}

void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
});
