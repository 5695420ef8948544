/**
 * citrix-broker-throttle and citrix-brokering-capacity across stacks (PERFGUARD_INVENTORY): the
 * platform stack (vdi-platform) owns zone apac (160 ms) and its two Delivery Controllers,
 * throttled at 20 each; the desktop team's stack (desktops-apac) adds catalog apac-catalog (its
 * `zone` the zone's id, perfguard:citrixZone=apac) and Delivery Group apac-eng, peak 30.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, describe, expect, it } from "vitest";
import { policies } from "../../../policies";
import { parseMessage } from "../../../policies/pack/message";
import { runPolicies } from "../../support/policyHarness";
import { fixture, previewOf, withInventoryEnv } from "../../support/inventoryStacks";

const citrix = policies.filter((p) => p.name.startsWith("citrix"));

async function judge(spec: string | undefined): Promise<Array<[string, string, string, string]>> {
    const out = await withInventoryEnv(spec, () => runPolicies(citrix, previewOf("desktops-apac.json")));
    for (const v of out) {
        expect(v.message).not.toMatch(/SECRETCIPHERTEXT|\[secret\]/);
    }
    return out.map((v) => [v.policyName, v.enforcementLevel, v.urn?.split("::").pop() ?? "(stack)", parseMessage(v.message).problem] as [string, string, string, string]).sort();
}

describe("the desktop team's apac-eng in the platform stack's zone", () => {
    it("with the platform stack's export: judged in zone apac (160 ms, 20 + 20)", async () => {
        expect(await judge(fixture("vdi-platform.json"))).toEqual([
            ["citrix-broker-throttle", "mandatory", "apac-eng", "Delivery Group \"apac-eng\": the throttles of 2 Delivery Controllers can put 30 concurrent requests on its lock, above the 24 it sustains."],
            ["citrix-brokering-capacity", "advisory", "apac-eng", "Delivery Group \"apac-eng\": at 30 concurrent launches, mean 14.1 s > 12 s."],
        ]);
    });

    it("names the platform stack's zone, where its controllers' throttles are changed", async () => {
        const out = await withInventoryEnv(fixture("vdi-platform.json"), () => runPolicies(citrix, previewOf("desktops-apac.json")));
        const throttle = out.find((v) => v.policyName === "citrix-broker-throttle");
        expect(throttle?.message).toContain("40 from zone \"apac\" (stack vdi-platform/prod, deployed 2026-12-04T19:00:00Z) at 160 ms");
    });

    it("without an inventory: not checked, naming PERFGUARD_INVENTORY, never the fact the catalog already declares", async () => {
        const out = await withInventoryEnv(undefined, () => runPolicies(citrix, previewOf("desktops-apac.json")));
        expect(out.length).toBeGreaterThan(0);
        for (const v of out) {
            const m = parseMessage(v.message);
            expect(v.enforcementLevel).toBe("advisory");
            expect(`${m.problem}\n${m.basis.join("\n")}`).toMatch(/not checked/);
            expect(m.fix).toMatch(/^set PERFGUARD_INVENTORY/);
        }
    });
});

/**
 * Zones joined across Sites and stacks (issue 32, fail closed): an unrelated project's zone of
 * the same name never takes the platform's controllers nor the desktop team's catalog; where the
 * Sites cannot be told apart, the join is named, never first-wins.
 */
describe("a zone name two Sites or stacks share", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-zonejoin-"));
    afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

    /** An export of `name` as project `project`, its hostnames replaced (undefined: removed), its zone id `zoneId`. */
    function variant(name: string, project: string | undefined, hostname: string | null | undefined, zoneId?: string): string {
        let text = fs.readFileSync(fixture(name), "utf8");
        const original = JSON.parse(text) as { deployment: { resources: Array<{ urn: string }> } };
        const from = original.deployment.resources[0].urn.split("::")[1];
        if (project) {
            text = text.split(`::${from}::`).join(`::${project}::`);
        }
        if (zoneId) {
            text = text.split("5e2a7c1d-3b4f-4e6a-8c9d-0a1b2c3d4e5f").join(zoneId);
        }
        const doc = JSON.parse(text) as { deployment: { resources: Array<{ type: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }> } };
        for (const r of doc.deployment.resources.filter((x) => x.type === "pulumi:providers:citrix")) {
            for (const props of [r.inputs, r.outputs]) {
                if (props && hostname === null) {
                    delete props.hostname;
                } else if (props && hostname !== undefined) {
                    props.hostname = hostname;
                }
            }
        }
        const file = path.join(tmp, `${project ?? from}-${hostname ?? "none"}-${zoneId ?? "id"}.json`);
        fs.writeFileSync(file, JSON.stringify(doc));
        return file;
    }

    const OTHER_ZONE = "0f0e0d0c-0b0a-4908-8706-050403020100";
    const PROVIDER = { urn: "urn:pulumi:prod::desktops-apac::pulumi:providers:citrix::site", props: { hostname: "ddc.apac.example.com" } };
    /** The desktop team's preview: its catalog named by its fact only (zone unset), its Citrix resources on `provider`. */
    const desktops = (factOnly: boolean, provider?: typeof PROVIDER) => previewOf("desktops-apac.json", (r) => ({
        ...r,
        ...(factOnly && r.type.endsWith("MachineCatalog") ? { props: { ...r.props, zone: undefined } } : {}),
        ...(provider && r.type.startsWith("citrix:") ? { provider } : {}),
    }));

    async function throttle(spec: string, preview = previewOf("desktops-apac.json")): Promise<string[]> {
        const out = await withInventoryEnv(spec, () => runPolicies(citrix.filter((p) => p.name === "citrix-broker-throttle"), preview));
        return out.map((v) => `${v.enforcementLevel} ${v.urn?.split("::").pop() ?? "(stack)"}: ${parseMessage(v.message).problem}`).sort();
    }

    const BASELINE = ["mandatory apac-eng: Delivery Group \"apac-eng\": the throttles of 2 Delivery Controllers can put 30 concurrent requests on its lock, above the 24 it sustains."];
    const NOT_PLACED = ["advisory (stack): 1 resource not checked: its catalog \"apac-catalog\" has a zone that cannot be resolved (DeliveryGroup \"apac-eng\")."];

    it("baseline: the platform stack alone, the desktop team's catalog by the zone's id", async () => {
        expect(await throttle(fixture("vdi-platform.json"))).toEqual(BASELINE);
    });

    const emea = () => variant("vdi-platform.json", "vdi-emea", "ddc.emea.example.com", OTHER_ZONE);
    const cases: Array<[string, () => { spec: string; preview?: ReturnType<typeof previewOf> }, string[]]> = [
        // Before: the first zone "apac" found (vdi-emea's) took the platform's controllers too.
        ["an unrelated project's zone apac on another Site: not joined", () => ({ spec: `${fixture("vdi-platform.json")},${emea()}` }), BASELINE],
        ["the same, no provider declaring an endpoint: joined by the zone id; each stack's controllers stay in their own zone", () => ({
            spec: `${variant("vdi-platform.json", undefined, null)},${variant("vdi-platform.json", "vdi-emea", null, OTHER_ZONE)}`,
        }), BASELINE],
        ["the catalog by perfguard:citrixZone only, on the platform's endpoint: the platform's zone", () => ({ spec: `${fixture("vdi-platform.json")},${emea()}`, preview: desktops(true, PROVIDER) }), BASELINE],
        ["the catalog by perfguard:citrixZone only, its provider without endpoint: two zones apac, not checked", () => ({ spec: `${fixture("vdi-platform.json")},${emea()}`, preview: desktops(true) }), NOT_PLACED],
        ["the catalog by perfguard:citrixZone only, no stack declaring an endpoint: not checked", () => ({
            spec: `${variant("vdi-platform.json", undefined, null)},${variant("vdi-platform.json", "vdi-emea", null, OTHER_ZONE)}`,
            preview: desktops(true),
        }), NOT_PLACED],
    ];
    it.each(cases)("%s", async (_name, setup, expected) => {
        const { spec, preview } = setup();
        expect(await throttle(spec, preview)).toEqual(expected);
    });

    it("the ambiguity names both stacks' zones (brokering capacity, on the catalog)", async () => {
        const spec = `${fixture("vdi-platform.json")},${emea()}`;
        const out = await withInventoryEnv(spec, () => runPolicies(citrix.filter((p) => p.name === "citrix-brokering-capacity"), desktops(true)));
        expect(out.flatMap((v) => parseMessage(v.message).basis)).toContain(
            "its perfguard:citrixZone matches 2 zones of Sites or stacks that cannot be told apart (Zone \"apac\" (stack vdi-emea/prod), Zone \"apac\" (stack vdi-platform/prod)): 1 (MachineCatalog \"apac-catalog\")");
    });

    it("two Sites of one stack with a zone apac each: a controller naming apac is not checked, naming both", async () => {
        const site = (host: string) => ({ urn: `urn:pulumi:test::perfguard-test::pulumi:providers:citrix::${host}`, props: { hostname: `${host}.example.com` } });
        const zone = (name: string, host: string) => ({ type: "citrix:index/zone:Zone", name, props: { name: "apac", metadatas: [{ name: "perfguard:rttMs", value: "160" }] }, provider: site(host) });
        const controller = { type: "vsphere:index/virtualMachine:VirtualMachine", name: "ddc-1", props: { extraConfig: { "guestinfo.perfguard.citrixRole": "deliveryController", "guestinfo.perfguard.citrixZone": "apac", "guestinfo.perfguard.throttleMaxConcurrentTransactions": "20" } } };
        const one = await withInventoryEnv(undefined, () => runPolicies(citrix.filter((p) => p.name === "citrix-broker-throttle"), [zone("apac-a", "ddc-a"), controller]));
        expect(one.map((v) => parseMessage(v.message).basis.concat(parseMessage(v.message).problem).join("\n")).join("\n")).not.toMatch(/cannot be told apart/);
        const two = await withInventoryEnv(undefined, () => runPolicies(citrix.filter((p) => p.name === "citrix-broker-throttle"), [zone("apac-a", "ddc-a"), zone("apac-b", "ddc-b"), controller]));
        expect(two.flatMap((v) => parseMessage(v.message).basis)).toContain(
            "its perfguard:citrixZone matches 2 zones of Sites or stacks that cannot be told apart (Zone \"apac-a\", Zone \"apac-b\"): 1 (VirtualMachine \"ddc-1\")");
    });
});
