/**
 * `npm run preview -- <program dir> [--policy-pack <dir>] [--policy-pack-config <file.json>]
 * [--record <out.json>] [--stack <name>] [--explain]`: prints what `pulumi preview --policy-pack` would
 * print about policies and exits 1 on a mandatory violation, 2 on bad policy config.
 */
import { parseArgs } from "util";
import { PreviewError } from "./errors";
import { formatExplanation } from "./explain";
import { runPreview } from "./runPreview";

const USAGE = "usage: npm run preview -- <program dir> [--policy-pack <dir>] [--policy-pack-config <file.json>] " +
    "[--record <out.json>] [--stack <name>] [--explain]";

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
                help: { type: "boolean", short: "h" },
            },
        });
    } catch (err) {
        process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
        return 2;
    }
    if (parsed.values.help) {
        process.stdout.write(USAGE + "\n");
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
        });
        process.stdout.write(result.output);
        if (result.explanation) {
            process.stdout.write("\n" + formatExplanation(result.explanation));
        }
        return result.exitCode;
    } catch (err) {
        if (err instanceof PreviewError) {
            process.stderr.write(`error: ${err.message}\n`);
            return err.exitCode;
        }
        process.stderr.write(`error: ${(err as Error).stack ?? String(err)}\n`);
        return 1;
    }
}

main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
});
