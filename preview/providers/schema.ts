/**
 * What a Terraform-bridged provider does to a resource's properties in a preview, from the facts
 * of the real providers' schemas (schema/<package>.json, each naming its source repository,
 * commit and files; regenerate with extract-schema.mjs). Used by the stand-in provider plugins
 * the real CLI runs (plugin.ts) and by the emulation's mocks (../mockedProgram.ts), so both give
 * the engine the same inputs and outputs. Free of Pulumi imports.
 *
 * - Check (`checkInputs`): an SDKv2 provider's Check fills every unset top-level input that has a
 *   schema `Default:` (the bridge applies Terraform defaults to the checked inputs), and an unset
 *   `name` of a package with autonaming (vsphere) gets `<resource name>-<7 hex>`. A plugin
 *   framework provider (citrix) applies defaults when it plans, not in Check: its defaults appear
 *   in the preview outputs only.
 * - Create in a preview (`previewOutputs`): the checked inputs, plus every top-level attribute the
 *   schema marks Computed that the program left unset, as the engine's unknown sentinel. No id.
 * - Create in an update (`createdOutputs`): the same with plausible values instead of unknowns.
 *
 * Only top-level attributes are modelled: defaults and computed attributes inside nested blocks
 * are not applied (perfguard reads none of them). Types without schema data are echoed.
 */
import avi from "./schema/avi.json";
import citrix from "./schema/citrix.json";
import vsphere from "./schema/vsphere.json";
import xenorchestra from "./schema/xenorchestra.json";

/** The engine's sentinel for an unknown value (the SDK's mocks and @pulumi/policy know it). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export type Props = Record<string, unknown>;

/** One top-level attribute as the schema data records it. */
export interface AttributeSchema {
    /** Terraform name, e.g. `metadata`. */
    tf: string;
    /** Pulumi name as the bridge derives it, e.g. `metadatas`. */
    pulumi: string;
    kind: string;
    required?: boolean;
    optional?: boolean;
    computed?: boolean;
    default?: unknown;
    /**
     * What the real provider stores for this computed attribute when the program left it unset
     * and Create found nothing to put there (Citrix `resource_location_id` of an on-premises zone:
     * null); without it, a plausible value is made up (see `plausible`).
     */
    createdUnset?: unknown;
}

export interface ResourceSchema {
    file: string;
    attributes: Record<string, AttributeSchema>;
}

/** The bridge's autonaming of a package (ProviderInfo.SetAutonaming in its resources.go). */
export interface Autonaming {
    property: string;
    maxLength: number;
    separator: string;
}

export interface PackageSchema {
    package: string;
    version?: string;
    autonaming?: Autonaming;
    bridge: "sdkv2" | "pf";
    source: Record<string, string>;
    resources: Record<string, ResourceSchema>;
}

export const PACKAGES: Readonly<Record<string, PackageSchema>> = {
    avi: avi as PackageSchema,
    citrix: citrix as PackageSchema,
    vsphere: vsphere as PackageSchema,
    xenorchestra: xenorchestra as PackageSchema,
};

/** The package of a type token (`citrix:index/zone:Zone` -> `citrix`). */
export function packageOf(type: string): string {
    return type.split(":")[0] ?? "";
}

function resourceOf(type: string): { pkg: PackageSchema; resource: ResourceSchema } | undefined {
    const pkg = PACKAGES[packageOf(type)];
    const resource = pkg?.resources[type];
    return pkg && resource ? { pkg, resource } : undefined;
}

function isUnset(value: unknown): boolean {
    return value === undefined || value === null;
}

/** Attributes that are properties in Pulumi (the Terraform `id` is the resource's id). */
function attributesOf(resource: ResourceSchema): AttributeSchema[] {
    return Object.values(resource.attributes).filter((a) => a.tf !== "id");
}

function withDefaults(resource: ResourceSchema, inputs: Props): Props {
    const out: Props = { ...inputs };
    for (const a of attributesOf(resource)) {
        if (a.default !== undefined && isUnset(out[a.pulumi])) {
            out[a.pulumi] = structuredClone(a.default);
        }
    }
    return out;
}

/**
 * The auto-name the bridge gives an unset `name`: `<resource name><separator><7 hex>`. The
 * bridge's 7 hex digits are random; here they are a hash of type and name, so that previews
 * repeat (no verdict depends on them).
 */
export function autoName(type: string, resourceName: string, naming: Autonaming): string {
    let h = 0x811c9dc5;
    for (const c of `${type}::${resourceName}`) {
        h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
    }
    const suffix = h.toString(16).padStart(8, "0").slice(0, 7);
    return `${resourceName}${naming.separator}${suffix}`.slice(0, naming.maxLength);
}

/**
 * The inputs a provider's Check returns for `inputs` of a resource of `type` named
 * `resourceName` (the name in its URN; without it no auto-name is given).
 * Input: the program's inputs (plain values; unknowns as UNKNOWN). Output: a new object.
 */
export function checkInputs(type: string, inputs: Props, resourceName?: string): Props {
    const found = resourceOf(type);
    if (!found) {
        return { ...inputs };
    }
    const out = found.pkg.bridge === "sdkv2" ? withDefaults(found.resource, inputs) : { ...inputs };
    const naming = found.pkg.autonaming;
    const named = naming && found.resource.attributes[naming.property];
    if (naming && named && named.kind === "string" && resourceName !== undefined && isUnset(out[naming.property])) {
        out[naming.property] = autoName(type, resourceName, naming);
    }
    return out;
}

/** A plausible value of a computed attribute after a create (an update on a local backend). */
function plausible(a: AttributeSchema, id: string): unknown {
    if ("createdUnset" in a) {
        return a.createdUnset;
    }
    switch (a.kind) {
        case "list":
        case "set":
            return [];
        case "map":
        case "object":
            return {};
        case "bool":
            return false;
        case "int":
        case "integer":
        case "float":
        case "number":
            return 0;
        default:
            // Avi's uuid and *_ref attributes, Citrix GUIDs, names: a stable string from the id.
            return /(^|_)ref$/.test(a.tf) ? `/api/${id}` : id;
    }
}

function outputs(type: string, checked: Props, fill: (a: AttributeSchema) => unknown): Props {
    const found = resourceOf(type);
    if (!found) {
        return { ...checked };
    }
    const out = found.pkg.bridge === "pf" ? withDefaults(found.resource, checked) : { ...checked };
    for (const a of attributesOf(found.resource)) {
        if (a.computed && isUnset(out[a.pulumi])) {
            out[a.pulumi] = fill(a);
        }
    }
    return out;
}

/**
 * The outputs a provider's Create returns in a preview for checked inputs: the inputs, plus each
 * computed attribute the program left unset as `unknown` (default: the engine's sentinel).
 */
export function previewOutputs(type: string, checked: Props, unknown: unknown = UNKNOWN): Props {
    return outputs(type, checked, () => unknown);
}

/** The outputs of a real Create (`pulumi up`): computed attributes left unset get plausible values. */
export function createdOutputs(type: string, checked: Props, id: string): Props {
    const out = outputs(type, checked, (a) => plausible(a, id));
    // The bridge keeps the Terraform `id` among the outputs of a created resource (the state holds
    // `outputs.id`, which references such as a Delivery Group's machineCatalog join on).
    return resourceOf(type) ? { ...out, id } : out;
}
