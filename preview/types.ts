/**
 * Shared shapes of the preview path: what the program runner records, what the pack reports,
 * and what runPreview returns. Property bags are plain JSON as they travel on the wire:
 * unknown values are the engine's sentinel strings (see UNKNOWN_STRING), secrets are plain values.
 */

/** Enforcement levels as @pulumi/policy and the CLI spell them. */
export type EnforcementLevel = "advisory" | "mandatory" | "remediate" | "disabled";

export const ENFORCEMENT_LEVELS: readonly EnforcementLevel[] = ["advisory", "mandatory", "remediate", "disabled"];

/** The engine's sentinel for an unknown (computed) value; @pulumi/policy's proxy.js knows it. */
export const UNKNOWN_STRING = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Environment variable carrying `--stack-reference` exports to the program runner: JSON, stack name -> file. */
export const STACK_REFERENCES_ENV = "PERFGUARD_STACK_REFERENCES";

/** Type token of the root stack resource every Pulumi program registers. */
export const ROOT_STACK_TYPE = "pulumi:pulumi:Stack";

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type PropertyBag = Record<string, JsonValue>;

/** Resource options as AnalyzerResourceOptions carries them (custom timeouts in seconds). */
export interface RecordedOptions {
    protect: boolean;
    ignoreChanges: string[];
    deleteBeforeReplace?: boolean;
    additionalSecretOutputs: string[];
    aliases: string[];
    customTimeouts: { create: number; update: number; delete: number; read: number };
}

/** A provider resource as AnalyzerProviderResource carries it. */
export interface ProviderResource {
    urn: string;
    type: string;
    name: string;
    properties: PropertyBag;
}

/** One resource the program registered, in the form the engine hands it to analyzers. */
export interface RecordedResource {
    urn: string;
    type: string;
    name: string;
    custom: boolean;
    /** Parent URN, "" for the root stack. */
    parent: string;
    /** Inputs as Analyze receives them. */
    inputs: PropertyBag;
    /** Outputs as AnalyzeStack receives them (a preview: the inputs; the stack: its outputs). */
    outputs: PropertyBag;
    dependencies: string[];
    propertyDependencies: Record<string, string[]>;
    /** Provider reference `<provider urn>::<provider id>`, when the program set one. */
    provider?: string;
    options: RecordedOptions;
    /**
     * Where the program declares it, as the state keeps it: `project:///index.ts#12,5`
     * (preview/sourcePosition.ts); absent when unknown.
     */
    sourcePosition?: string;
}

/** A diagnostic as the pack returns it, in plain JS. */
export interface Diagnostic {
    policyName: string;
    policyPackName: string;
    policyPackVersion: string;
    description: string;
    message: string;
    enforcementLevel: EnforcementLevel;
    urn?: string;
    severity?: string;
}

/** A violation as runPreview reports it. */
export interface Violation {
    policyName: string;
    policyPackName: string;
    policyPackVersion: string;
    enforcementLevel: EnforcementLevel;
    message: string;
    urn?: string;
    resourceType?: string;
    resourceName?: string;
    phase: "analyze" | "analyzeStack";
}

/** A remediation the pack applied to a resource's inputs. */
export interface AppliedRemediation {
    policyName: string;
    policyPackName: string;
    policyPackVersion: string;
    urn: string;
    before: PropertyBag;
    after: PropertyBag;
}
