/**
 * Stack references in the emulated preview: what a `pulumi:pulumi:StackReference` reads, as the
 * engine's builtin provider answers it, from a `--stack-reference` export or the file backend.
 */
import { parseStackName, readBackendStack, readExportFile, StackState, stackOutputs } from "./backendState";
import { PropertyBag, STACK_REFERENCES_ENV, UNKNOWN_STRING } from "./types";

/** Type token of a stack reference (a read of another stack's outputs). */
export const STACK_REFERENCE_TYPE = "pulumi:pulumi:StackReference";

/** Names a feature the emulation does not reproduce; each distinct line is printed once. */
export type NotReproduced = (feature: string) => void;

/** Where `--stack-reference` exports point, from the parent: stack name -> file. */
function givenStackReferences(): Map<string, string> {
    try {
        const parsed = JSON.parse(process.env[STACK_REFERENCES_ENV] ?? "{}") as Record<string, string>;
        return new Map(Object.entries(parsed));
    } catch {
        return new Map();
    }
}

/**
 * What a StackReference reads, as the engine's builtin provider answers it: the other stack's
 * outputs and the names of the secret ones, from a `--stack-reference` export (matched by the
 * name as written or as organization/project/stack), else from the file backend the CLI would use.
 * What cannot be read is unknown (so every policy reading it says "not checked") and named.
 */
export function stackReferenceState(name: string, project: string, notReproduced: NotReproduced): PropertyBag {
    const given = givenStackReferences();
    const parsed = parseStackName(name, project);
    const qualified = "why" in parsed ? name : `organization/${parsed.project}/${parsed.stack}`;
    const file =
        given.get(name) ??
        [...given.entries()].find(([key]) => {
            const other = parseStackName(key, project);
            return !("why" in other) && `organization/${other.project}/${other.stack}` === qualified;
        })?.[1];
    let state: StackState;
    if (file !== undefined) {
        state = readExportFile(file);
    } else if ("why" in parsed) {
        state = { kind: "unreadable", why: parsed.why };
    } else {
        state = readBackendStack(parsed.project, parsed.stack);
    }
    const unknown = { name, outputs: UNKNOWN_STRING, secretOutputNames: UNKNOWN_STRING } as unknown as PropertyBag;
    if (state.kind !== "found") {
        const why = state.kind === "absent" ? `no stack ${qualified} at ${state.where}` : state.why;
        notReproduced(`stack reference "${name}" (${why}; pass --stack-reference ${qualified}=<pulumi stack export file>): its outputs are unknown`);
        return unknown;
    }
    const { outputs, secretNames, encrypted } = stackOutputs(state.resources);
    for (const key of encrypted) {
        // A state secret is ciphertext here: unknown rather than a guess.
        outputs[key] = UNKNOWN_STRING;
    }
    if (encrypted.length > 0) {
        notReproduced(
            `encrypted outputs of stack reference "${name}" (${encrypted.join(", ")}; export them with ` +
                "pulumi stack export --show-secrets and pass --stack-reference): they are unknown",
        );
    }
    return { name, outputs, secretOutputNames: secretNames };
}
