/**
 * The stand-in Avi SDK the examples use (examples/sdk/avi.ts) accepts every field the NSX
 * policies read, under the real provider's name and type (scripts/real-sdk/schemas/avi.json, the
 * schema the real bridged SDK is generated from), and passes each one on to the engine: a user's
 * `scaleoutEcmp: "true"` must not be dropped before the policies see it.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";

const ROOT = path.join(__dirname, "..", "..", "..");
const STAND_IN = fs.readFileSync(path.join(ROOT, "examples", "sdk", "avi.ts"), "utf8");
const SCHEMA = JSON.parse(fs.readFileSync(path.join(ROOT, "scripts", "real-sdk", "schemas", "avi.json"), "utf8")) as {
    resources: Record<string, { inputProperties: Record<string, { type?: string; items?: { type?: string } }> }>;
};

/** The fields of `interface <name> { ... }` in the stand-in, with their TypeScript types. */
function argsOf(name: string): Record<string, string> {
    const body = STAND_IN.slice(STAND_IN.indexOf(`export interface ${name} {`));
    const block = body.slice(0, body.indexOf("\n}"));
    return Object.fromEntries([...block.matchAll(/^\s+(\w+)\?: (.+);$/gm)].map((m) => [m[1], m[2]]));
}

/** The fields the constructor of `class <name>` passes on (`field: args.field`). */
function passedOn(name: string): string[] {
    const body = STAND_IN.slice(STAND_IN.indexOf(`export class ${name} `));
    const block = body.slice(0, body.indexOf("super("));
    return [...block.matchAll(/^\s+(\w+): args\.(\w+),$/gm)].filter((m) => m[1] === m[2]).map((m) => m[1]);
}

function schemaType(p: { type?: string; items?: { type?: string } }): string {
    return p.type === "array" ? `pulumi.Input<pulumi.Input<${p.items?.type}>[]>` : `pulumi.Input<${p.type}>`;
}

// What policies/nsx-alb reads (docs/policies/nsx-alb-se-capacity.md, "Reads"; markers carry the perfguard: facts).
const READ: Array<[string, string, string[]]> = [
    [
        "Serviceenginegroup",
        "avi:index/serviceenginegroup:Serviceenginegroup",
        [
            "name",
            "uuid",
            "cloudRef",
            "tenantRef",
            "vcpusPerSe",
            "memoryPerSe",
            "diskPerSe",
            "maxSe",
            "minScaleoutPerVs",
            "maxScaleoutPerVs",
            "bufferSe",
            "haMode",
            "algo",
            "maxVsPerSe",
            "distributeLoadActiveStandby",
            "dedicatedDispatcherCore",
            "markers",
        ],
    ],
    [
        "Virtualservice",
        "avi:index/virtualservice:Virtualservice",
        [
            "name",
            "uuid",
            "seGroupRef",
            "cloudRef",
            "tenantRef",
            "type",
            "vhParentVsRef",
            "applicationProfileRef",
            "services",
            "sslKeyAndCertificateRefs",
            "scaleoutEcmp",
            "markers",
        ],
    ],
    // The certificate a VS names: its keyParams give the SSL TPS row (policies/nsx-alb/certificates.ts).
    ["Sslkeyandcertificate", "avi:index/sslkeyandcertificate:Sslkeyandcertificate", ["name", "uuid", "tenantRef", "type", "keyParams", "markers"]],
];

describe.each(READ)("examples/sdk/avi.ts %s", (name, token, fields) => {
    const args = argsOf(`${name}Args`);
    const inputs = SCHEMA.resources[token].inputProperties;
    it.each(fields)("accepts and passes on %s", (field) => {
        expect(Object.keys(args)).toContain(field);
        expect(passedOn(name)).toContain(field);
        expect(Object.keys(inputs)).toContain(field);
    });
    it("names and types every plain input as the provider's schema does", () => {
        // Nested blocks (services, markers, ...) have their own Args types; the strings and string lists must match.
        const plain = Object.entries(args).filter(([, t]) => /^pulumi\.Input<(string|pulumi\.Input<string>\[\])>$/.test(t));
        expect(plain.length).toBeGreaterThan(name === "Sslkeyandcertificate" ? 3 : 10);
        for (const [field, type] of plain) {
            expect(inputs[field], field).toBeDefined();
            expect(type, field).toBe(schemaType(inputs[field]));
        }
    });
});
