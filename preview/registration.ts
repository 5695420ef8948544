/**
 * What the engine records of one resource registration, read from the RegisterResourceRequest the
 * SDK sends: its URN, its options (custom timeouts parsed from Go durations), its aliases and its
 * source position.
 */
import * as aliasproto from "@pulumi/pulumi/proto/alias_pb";
import * as resproto from "@pulumi/pulumi/proto/resource_pb";
import { toProjectPosition } from "./sourcePosition";
import { RecordedOptions, ROOT_STACK_TYPE } from "./types";

/** Parses a Go duration string ("5m", "1h30m", "90s") into seconds; "" or garbage -> 0. */
function durationSeconds(text: string): number {
    const units: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };
    let total = 0;
    const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g;
    let match: RegExpExecArray | null;
    while ((match = re.exec(text)) !== null) {
        total += Number(match[1]) * units[match[2]];
    }
    return total;
}

/** The registration's source position in the state's form, when the SDK sent one inside the program's folder. */
export function sourcePositionOf(req: resproto.RegisterResourceRequest, programDir: string): { sourcePosition?: string } {
    const pos = req.getSourceposition();
    const text = pos ? toProjectPosition(pos.getUri(), pos.getLine(), pos.getColumn(), programDir) : undefined;
    return text ? { sourcePosition: text } : {};
}

/** A registration's aliases as the engine collects them: alias URNs first, then the specs. */
export function aliasesOf(req: resproto.RegisterResourceRequest): aliasproto.Alias[] {
    return [...req.getAliasurnsList().map((urn) => new aliasproto.Alias().setUrn(urn)), ...req.getAliasesList()];
}

/** @param aliases - what the engine sends: the alias that matched the previous state, if any. */
export function optionsOf(req: resproto.RegisterResourceRequest, aliases: string[]): RecordedOptions {
    const timeouts = req.getCustomtimeouts();
    const options: RecordedOptions = {
        protect: req.getProtect() ?? false,
        ignoreChanges: req.getIgnorechangesList(),
        additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
        aliases,
        customTimeouts: {
            create: durationSeconds(timeouts?.getCreate() ?? ""),
            update: durationSeconds(timeouts?.getUpdate() ?? ""),
            delete: durationSeconds(timeouts?.getDelete() ?? ""),
            read: durationSeconds(timeouts?.getRead() ?? ""),
        },
    };
    if (req.getDeletebeforereplacedefined()) {
        options.deleteBeforeReplace = req.getDeletebeforereplace();
    }
    return options;
}

/**
 * Builds a URN as the engine does: the parent's qualified type prefixes the child's type,
 * except under the root stack, whose children are named as top-level resources.
 */
export function engineUrn(stack: string, project: string, parent: string, type: string, name: string): string {
    let qualifiedType = type;
    if (parent) {
        const parentType = parent.split("::")[2] ?? "";
        if (parentType !== ROOT_STACK_TYPE) {
            qualifiedType = `${parentType}$${type}`;
        }
    }
    return `urn:pulumi:${stack}::${project}::${qualifiedType}::${name}`;
}
