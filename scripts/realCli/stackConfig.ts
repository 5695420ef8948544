/**
 * Carries a program's `Pulumi.<stack>.yaml` into the staged copy preview:real runs, so that the
 * real CLI sees the stack config the user's own `pulumi preview --stack <stack>` would (issue 33:
 * the staged stack used to start empty, and a zone whose RTT came from the stack file was judged
 * at the program's default).
 *
 * - Plain config values are carried as written (the file is copied, not re-serialized: YAML
 *   types and comments stay as the user wrote them).
 * - Secrets encrypted by the passphrase provider (`encryptionsalt`) are carried with the salt and
 *   decrypted by the CLI with the passphrase the user gives (PULUMI_CONFIG_PASSPHRASE or
 *   PULUMI_CONFIG_PASSPHRASE_FILE); without one, they are left out and named "not reproduced".
 * - Secrets of another provider (`secretsprovider: awskms://...`, the Pulumi Cloud's keys: no
 *   salt) cannot be decrypted offline: left out and named "not reproduced".
 * - An ESC `environment:` cannot be opened offline: left out and named "not reproduced".
 * A file with no secrets loses its salt and provider lines: the scratch stack is initialized
 * with preview:real's own passphrase, whatever the user's stack was created with.
 */
import * as fs from "fs";
import * as yaml from "js-yaml";
import * as path from "path";

/** What was carried, and what could not be (each one makes preview:real exit 1). */
export interface CarriedConfig {
    /** The stack file carried, or undefined when the program has none. */
    readonly file?: string;
    /** True when the user's passphrase must decrypt the carried secrets. */
    readonly usesUserPassphrase: boolean;
    readonly notReproduced: string[];
}

/** Lines of a stack file that bind it to the stack it was created for (its secrets provider). */
const SECRETS_LINE = /^(?:encryptionsalt|secretsprovider|encryptedkey):.*(?:\r?\n|$)/gm;

/** The passphrase the user gave for the CLI, if any. */
export function userPassphraseGiven(env: NodeJS.ProcessEnv = process.env): boolean {
    return env.PULUMI_CONFIG_PASSPHRASE !== undefined || (env.PULUMI_CONFIG_PASSPHRASE_FILE ?? "") !== "";
}

function isSecure(value: unknown): boolean {
    return value !== null && typeof value === "object" && !Array.isArray(value) && "secure" in value;
}

/**
 * Copies `<programDir>/Pulumi.<stack>.yaml` to `<stagedDir>` as the rules above say. Throws a
 * one-line Error when the file does not parse (the CLI would refuse it too).
 */
export function carryStackConfig(programDir: string, stagedDir: string, stack: string, env: NodeJS.ProcessEnv = process.env): CarriedConfig {
    const name = `Pulumi.${stack}.yaml`;
    const source = path.join(programDir, name);
    if (!fs.existsSync(source)) {
        return { usesUserPassphrase: false, notReproduced: [] };
    }
    const text = fs.readFileSync(source, "utf8");
    let doc: Record<string, unknown>;
    try {
        const loaded = yaml.load(text);
        doc = loaded !== null && typeof loaded === "object" && !Array.isArray(loaded) ? (loaded as Record<string, unknown>) : {};
    } catch (err) {
        throw new Error(`cannot parse ${source}: ${(err as Error).message.split("\n")[0]}`, { cause: err });
    }
    const config = (doc.config ?? {}) as Record<string, unknown>;
    const secureKeys = Object.keys(config)
        .filter((k) => isSecure(config[k]))
        .sort();
    const notReproduced: string[] = [];
    let out = text;
    let usesUserPassphrase = false;
    if (secureKeys.length > 0) {
        const provider = typeof doc.secretsprovider === "string" ? doc.secretsprovider : undefined;
        const passphrase = typeof doc.encryptionsalt === "string" && (provider === undefined || provider === "passphrase");
        const why = !passphrase
            ? `encrypted by the secrets provider ${provider ?? "of the Pulumi Cloud (no encryptionsalt)"}, which preview:real cannot open offline`
            : !userPassphraseGiven(env)
              ? "encrypted with a passphrase, and neither PULUMI_CONFIG_PASSPHRASE nor PULUMI_CONFIG_PASSPHRASE_FILE is set"
              : undefined;
        if (why === undefined) {
            usesUserPassphrase = true;
        } else {
            notReproduced.push(`the secret config ${secureKeys.join(", ")} of ${name}, ${why}: left out`);
            out = withoutKeys(doc, secureKeys);
        }
    }
    if (!usesUserPassphrase) {
        out = out.replace(SECRETS_LINE, "");
    }
    if (doc.environment !== undefined) {
        notReproduced.push(`the ESC environment of ${name} (environment:), which preview:real cannot open offline: left out`);
        const rest = { ...(yaml.load(out) as Record<string, unknown>) };
        delete rest.environment;
        out = yaml.dump(rest);
    }
    fs.writeFileSync(path.join(stagedDir, name), out);
    return { file: source, usesUserPassphrase, notReproduced };
}

/** The document without the given config keys and its secrets-provider lines, re-serialized. */
function withoutKeys(doc: Record<string, unknown>, keys: readonly string[]): string {
    const config = { ...(doc.config as Record<string, unknown>) };
    for (const k of keys) {
        delete config[k];
    }
    const rest: Record<string, unknown> = { ...doc, config };
    delete rest.encryptionsalt;
    delete rest.secretsprovider;
    delete rest.encryptedkey;
    return yaml.dump(rest);
}

/** The line preview:real prints for what it did not carry. */
export function notReproducedByRealLine(feature: string): string {
    return `warning: not reproduced by preview:real: ${feature}; the CLI might judge the stack differently: exit 1\n`;
}
