/**
 * `npm run preview -- <program dir> [--policy-pack <dir>] [--policy-pack-config <file.json>]
 * [--record <out.json>] [--stack <name>] [--explain]`: prints what `pulumi preview --policy-pack` would
 * print about policies and exits as the CLI does: 1 on a mandatory violation, a failing program, bad
 * policy config or a program directory it cannot run; 2 on bad arguments to this command. Errors are one `error: ...` line (plus the
 * program's own messages); stack traces only for internal errors with PERFGUARD_DEBUG=1.
 */
import { parseArgs } from "util";
import { DEBUG_ENV, debugEnabled, formatCliError, ProgramFailure } from "./errors";
import { formatExplanation } from "./explainReport";
import { runPreview } from "./runPreview";

const USAGE = "usage: npm run preview -- <program dir> [--policy-pack <dir>] [--policy-pack-config <file.json>] " +
    "[--record <out.json>] [--stack <name>] [--diff] [--explain]";

const HELP = `${USAGE}

Runs the Pulumi Node.js program in <program dir> (Pulumi.yaml's main, else package.json's entry,
else index.js or index.ts) under preview mocks, sends its resources to the policy pack as the
Pulumi CLI does, and prints the violations in the CLI's format: the progress view (the
\`Policies:\` section, then \`Resources:\` unless a mandatory violation was reported), or with
--diff the diff view (one event line per violation, then \`Resources:\` and the packs run).

Exit codes, as the Pulumi CLI's: 0 no mandatory violation; 1 a mandatory violation, the program
failed (it threw, a registration or promise rejected, or it logged an error), bad policy config
(unreadable file, an invalid level, a value its schema rejects), a program directory that cannot
be run (missing, no Pulumi.yaml, runtime not nodejs, bad main), or a policy pack directory that
is missing or has no PulumiPolicy.yaml; 2 bad arguments to this command.

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
                "policy-pack": { type: "string" },
                "policy-pack-config": { type: "string" },
                record: { type: "string" },
                stack: { type: "string" },
                explain: { type: "boolean" },
                diff: { type: "boolean" },
                help: { type: "boolean", short: "h" },
            },
        });
    } catch (err) {
        process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
        return 2;
    }
    if (parsed.values.help) {
        process.stdout.write(HELP);
        return 0;
    }
    if (parsed.positionals.length !== 1) {
        process.stderr.write(USAGE + "\n");
        return 2;
    }
    try {
        const result = await runPreview({
            programDir: parsed.positionals[0],
            packDir: parsed.values["policy-pack"],
            policyPackConfig: parsed.values["policy-pack-config"],
            record: parsed.values.record,
            stack: parsed.values.stack,
            explain: parsed.values.explain,
            view: parsed.values.diff ? "diff" : "progress",
        });
        process.stdout.write(result.output);
        if (result.explanation) {
            process.stdout.write("\n" + formatExplanation(result.explanation));
        }
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

main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
});
