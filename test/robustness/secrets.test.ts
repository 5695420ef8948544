/**
 * Secrets never leak: a marker is planted in every string property and fact value that no
 * verdict needs (names, descriptions, passwords, refs, non-fact tags, the values of unknown
 * perfguard keys, long invalid fact values, wire secrets), every policy runs, and no violation
 * message and no line the pack printed may contain it. Both paths: the SDK server functions
 * in-process and the real pack over gRPC (needs npm run build).
 *
 * Deliberate design, not weakened here: messages quote a value when it is a short plain token
 * (at most 16 letters, digits, '.', '+', '-', ' ': README "Facts"), so the marker is longer than
 * that; and values a verdict needs are shown on purpose (a zone's or SE group's name, a Xen host,
 * a waiver's reason), so they carry no marker.
 */
import * as path from "path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { policies } from "../../policies";
import { SE_GROUP_FIELD_NAMES } from "../../policies/nsx-alb/seGroupFields";
import { FACT_KEYS } from "../../policies/pack/factKeys";
import { PackClient, startPack } from "../../preview/packClient";
import type { Diagnostic, PropertyBag } from "../../preview/types";
import { citrixStack } from "../policies/citrix/citrixFixtures";
import { nsxStack } from "../policies/nsx-alb/nsxFixtures";
import { dom0Service, XCP01_UUID, xenStack } from "../policies/xen/xenFixtures";
import { asWireSecret, CATALOG_TYPE, SE_GROUP_TYPE, SIG_KEY, stackArb, TYPES, VS_TYPE, XEN_VM_TYPE, ZONE_TYPE } from "../support/arbitraries";
import { TestResource, urnOf } from "../support/policyHarness";
import { sdkServer } from "../support/sdkServerPath";

const ROOT = path.resolve(__dirname, "..", "..");
const MARKER = "S3CR3T-MARKER-9f2c41";
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);

// Props a verdict reads as values (the joins and figures); everything else is fair game.
const NEEDED: Readonly<Record<string, ReadonlySet<string>>> = {
    [ZONE_TYPE]: new Set(["name"]),
    [CATALOG_TYPE]: new Set(["provisioningScheme.numberOfTotalMachines"]),
    [SE_GROUP_TYPE]: new Set(["name", ...SE_GROUP_FIELD_NAMES]),
    [VS_TYPE]: new Set(["seGroupRef", "services.enableSsl"]),
    [XEN_VM_TYPE]: new Set(["affinityHost"]),
};
// Fact values a verdict shows or joins on (identity, not data): kept as they are.
const SHOWN_FACTS = new Set(["waive", "waivereason", "citrixzone", "xenhost"]);
const FACT_CONTAINERS = new Set(["tags", "metadata", "metadatas", "markers", "extraConfig"]);

function factKeyOf(raw: unknown): string | undefined {
    if (typeof raw === "string" && /^guestinfo\.perfguard\./i.test(raw.trim())) {
        return raw.trim().slice("guestinfo.perfguard.".length).toLowerCase();
    }
    return typeof raw === "string" && /^perfguard[:_]/i.test(raw.trim()) ? raw.trim().slice(10).toLowerCase() : undefined;
}

function isKnownFact(raw: unknown): boolean {
    const key = factKeyOf(raw);
    return key !== undefined && FACT_KEYS.some((d) => d.key.toLowerCase() === key);
}

let counter = 0;
function marked(value: string): string {
    counter += 1;
    return `${MARKER}-${counter}-${value}`;
}

function markLeaves(value: unknown, pathKey: string, needed: ReadonlySet<string>): unknown {
    if (needed.has(pathKey)) {
        return value;
    }
    if (typeof value === "string") {
        // Every fourth one goes on the wire as a secret, as the engine sends secret outputs.
        const m = marked(value);
        return counter % 4 === 0 ? asWireSecret(m) : m;
    }
    if (Array.isArray(value)) {
        return value.map((v) => markLeaves(v, pathKey, needed));
    }
    if (value !== null && typeof value === "object") {
        // A wire secret keeps its signature; its value is marked like any other.
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === SIG_KEY ? v : markLeaves(v, pathKey ? `${pathKey}.${k}` : k, needed)]));
    }
    return value;
}

/** Marks non-fact entries of a fact container; known facts keep their values, unknown keys' values are marked. */
function markContainer(value: unknown): unknown {
    const markValue = (key: unknown, v: unknown) => (isKnownFact(key) ? v : typeof v === "string" ? marked(v) : v);
    if (Array.isArray(value)) {
        return value.map((item) => {
            if (typeof item === "string") {
                const eq = item.indexOf("=");
                if (eq >= 0 && factKeyOf(item.slice(0, eq)) !== undefined) {
                    return isKnownFact(item.slice(0, eq)) ? item : `${item.slice(0, eq)}=${marked(item.slice(eq + 1))}`;
                }
                return marked(item);
            }
            if (item !== null && typeof item === "object" && !Array.isArray(item)) {
                const e = item as Record<string, unknown>;
                if ("name" in e && "value" in e) {
                    return { ...e, value: markValue(e.name, e.value) };
                }
                if ("key" in e && Array.isArray(e.values)) {
                    return { ...e, values: e.values.map((v) => markValue(e.key, v)) };
                }
            }
            return item;
        });
    }
    if (value !== null && typeof value === "object") {
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === SIG_KEY ? v : markValue(k, v)]));
    }
    return value;
}

/** The resource with the marker in every value no verdict needs, plus an unknown fact key carrying it. */
function plant(r: TestResource): TestResource {
    const needed = NEEDED[r.type] ?? new Set<string>();
    const props: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(r.props)) {
        props[k] = FACT_CONTAINERS.has(k) ? markContainer(v) : markLeaves(v, k, needed);
    }
    const tags = props.tags;
    if (Array.isArray(tags)) {
        props.tags = [...tags, `perfguard:apiToken=${MARKER}`];
    } else if (tags === undefined) {
        props.tags = [`perfguard:apiToken=${MARKER}`, `password=${MARKER}`];
    }
    props.adminPassword = asWireSecret(MARKER);
    return { ...r, props };
}

/** A resource of `type` whose every fact is a long invalid value carrying the marker. */
function invalidFacts(type: string, i: number): TestResource {
    const long = `${MARKER}${"x".repeat(30)}`;
    return {
        type,
        name: `invalid-facts-${i}`,
        props: {
            name: `invalid-facts-${i}`,
            tags: Object.fromEntries(FACT_KEYS.filter((d) => !SHOWN_FACTS.has(d.key.toLowerCase())).map((d) => [`perfguard:${d.key}`, long])),
            markers: [{ key: "perfguard:sslTps", values: [MARKER] }],
            description: MARKER,
        },
    };
}

const STACKS: Array<[string, TestResource[]]> = [
    ["Citrix", citrixStack({ rttMs: "260", throttles: ["20", "20", undefined], users: "20000", machines: "10001" })],
    ["Citrix, no controllers", citrixStack({ throttles: [] })],
    ["NSX ALB", nsxStack({ shop: { sslTps: "3000" }, group: { memoryPerSe: "2048", dedicatedDispatcherCore: "false" } })],
    ["NSX ALB, maxSe 2", nsxStack({ group: { maxSe: "2" } })],
    ["Xen", xenStack({ add: [dom0Service("backup", XCP01_UUID, "backup-agent-with-a-long-role", "60")] })],
];

function pairs(list: ReadonlyArray<{ policyName: string; urn?: string }>): string[] {
    return [...new Set(list.map((d) => `${d.policyName} -> ${d.urn ?? "(stack)"}`))].sort();
}

function withExtras(stack: TestResource[]): TestResource[] {
    return [...stack.map(plant), ...TYPES.map(invalidFacts)];
}

describe("no marker in any message: the SDK server functions", () => {
    const server = sdkServer(policies);

    it.each(STACKS)("%s: every verdict still comes, and none quotes the marker", async (_label, stack) => {
        const clean = await server.preview(stack);
        const planted = await server.preview(withExtras(stack));
        // Non-vacuity: the marked stack still yields the clean verdicts (the marker hid nothing).
        const found = new Set(pairs(planted.diagnostics));
        expect(pairs(clean.diagnostics).filter((v) => !found.has(v))).toEqual([]);
        expect(planted.diagnostics.length).toBeGreaterThan(clean.diagnostics.length);
        expect(planted.diagnostics.filter((d) => d.message.includes(MARKER)).map((d) => d.message)).toEqual([]);
    });

    it("arbitrary stacks with the marker planted: none quotes it", async () => {
        await fc.assert(
            fc.asyncProperty(stackArb({ maxResources: 5 }), async (stack) => {
                const preview = await server.preview(stack.map(plant));
                expect(preview.diagnostics.filter((d) => d.message.includes(MARKER)).map((d) => d.message)).toEqual([]);
            }),
            { numRuns: RUNS },
        );
    });
});

describe("no marker in any message or pack output: the real pack over gRPC", () => {
    let pack: PackClient;
    let printed = "";

    beforeAll(async () => {
        pack = await startPack(ROOT, {
            onOutput: (chunk) => {
                printed += chunk;
            },
        });
    });
    afterAll(async () => {
        await pack?.close();
    });

    async function run(resources: TestResource[]): Promise<Diagnostic[]> {
        const urnByName = new Map(resources.map((r) => [r.name, urnOf(r.type, r.name)]));
        const inputs = resources.map((r) => ({
            urn: urnOf(r.type, r.name),
            type: r.type,
            name: r.name,
            properties: r.props as PropertyBag,
            propertyDependencies: Object.fromEntries(
                Object.entries(r.propertyDependencies ?? {}).map(([k, names]) => [k, names.map((n) => urnByName.get(n) as string)]),
            ),
        }));
        const out: Diagnostic[] = [];
        for (const r of inputs) {
            out.push(...(await pack.analyze(r)).diagnostics);
        }
        out.push(...(await pack.analyzeStack(inputs)).diagnostics);
        return out;
    }

    it("with marked stacks and a config carrying the marker in invalid values and unknown keys", async () => {
        const info = await pack.getAnalyzerInfo();
        // Typed as the Configure call takes it, so the assignments below may set any property bag.
        const config: Record<string, { enforcementLevel: (typeof info.policies)[number]["enforcementLevel"]; properties: PropertyBag }> = Object.fromEntries(
            info.policies.map((p) => [p.name, { enforcementLevel: p.enforcementLevel, properties: { [`typo${p.name.length}`]: MARKER } }]),
        );
        config["citrix-zone-rtt-limit"].properties = { maxRttMs: MARKER };
        config["xen-guest-network-share"].properties = { hosts: { h1: { linkMBps: MARKER } }, defaultLinkMBps: `${MARKER}-1` };
        config["nsx-alb-se-capacity"].properties = { seGroups: { "Default-Group": { vcpusPerSe: MARKER, haMode: `${MARKER}-mode` } } };
        await pack.configure(config);
        const diagnostics: Diagnostic[] = [];
        for (const [, stack] of STACKS) {
            diagnostics.push(...(await run(withExtras(stack))));
        }
        // Non-vacuity: config problems and verdicts were reported, and the pack printed nothing odd.
        expect(diagnostics.some((d) => d.message.includes("invalid config for policy citrix-zone-rtt-limit"))).toBe(true);
        expect(
            diagnostics.some(
                (d) =>
                    d.message.includes("invalid config for policy nsx-alb-se-capacity: an entry of seGroups is invalid") &&
                    d.message.includes("field seGroups.Default-Group"),
            ),
        ).toBe(true);
        expect(diagnostics.some((d) => d.policyName === "perfguard-facts" && d.message.includes("perfguard:apiToken"))).toBe(true);
        expect(diagnostics.filter((d) => d.message.includes(MARKER)).map((d) => d.message)).toEqual([]);
        expect(printed).not.toContain(MARKER);
        expect(pack.output()).not.toContain(MARKER);
    });
});
