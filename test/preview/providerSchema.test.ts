/**
 * The stand-in providers' preview behaviour (preview/providers/schema.ts) and the schema data it
 * reads: defaults in Check, computed-unset attributes unknown in a preview Create, sources named.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { fakeId, nameOfUrn, typeOfUrn } from "../../preview/providers/plugin";
import { autoName, checkInputs, createdOutputs, PACKAGES, previewOutputs, UNKNOWN } from "../../preview/providers/schema";

const SEG = "avi:index/serviceenginegroup:Serviceenginegroup";
const VS = "avi:index/virtualservice:Virtualservice";
const ZONE = "citrix:index/zone:Zone";
const DG = "citrix:index/deliveryGroup:DeliveryGroup";
const VSPHERE_VM = "vsphere:index/virtualMachine:VirtualMachine";
const XO_VM = "xenorchestra:index/vm:Vm";

describe("checkInputs (a provider's Check)", () => {
    const cases: { name: string; type: string; inputs: Record<string, unknown>; key: string; want: unknown }[] = [
        // resource_avi_serviceenginegroup.go Default: values.
        { name: "Avi haMode default", type: SEG, inputs: { name: "g" }, key: "haMode", want: "HA_MODE_SHARED" },
        { name: "Avi vcpusPerSe default", type: SEG, inputs: { name: "g" }, key: "vcpusPerSe", want: "1" },
        { name: "Avi maxSe default", type: SEG, inputs: { name: "g" }, key: "maxSe", want: "10" },
        { name: "a set value is kept", type: SEG, inputs: { name: "g", maxSe: "4" }, key: "maxSe", want: "4" },
        { name: "null counts as unset", type: SEG, inputs: { name: "g", maxSe: null }, key: "maxSe", want: "10" },
        { name: "an unknown value is not defaulted", type: SEG, inputs: { name: "g", maxSe: UNKNOWN }, key: "maxSe", want: UNKNOWN },
        // Optional+Computed without Default: Check leaves it unset.
        { name: "Avi dedicatedDispatcherCore has no default", type: SEG, inputs: { name: "g" }, key: "dedicatedDispatcherCore", want: undefined },
        // Plugin framework (Citrix): defaults are plan-time, not Check.
        { name: "Citrix defaults wait for the plan", type: DG, inputs: { name: "dg" }, key: "loadBalancingType", want: undefined },
        { name: "Xen Orchestra Vm autoPoweron default", type: XO_VM, inputs: {}, key: "autoPoweron", want: false },
        { name: "vSphere numCpus default", type: VSPHERE_VM, inputs: { name: "vm" }, key: "numCpus", want: 1 },
        { name: "vSphere memory default", type: VSPHERE_VM, inputs: { name: "vm" }, key: "memory", want: 1024 },
        { name: "an unknown type is echoed", type: "other:index/x:X", inputs: { a: 1 }, key: "a", want: 1 },
    ];
    for (const c of cases) {
        it(c.name, () => {
            expect(checkInputs(c.type, c.inputs)[c.key]).toEqual(c.want);
        });
    }

    it("does not change its argument", () => {
        const inputs = { name: "g" };
        checkInputs(SEG, inputs);
        expect(inputs).toEqual({ name: "g" });
    });

    it("auto-names an unset vSphere name as <name>-<7 hex>, and keeps a set one", () => {
        const named = checkInputs(VSPHERE_VM, {}, "ddc-01").name as string;
        expect(named).toMatch(/^ddc-01-[0-9a-f]{7}$/);
        expect(named).toBe(autoName(VSPHERE_VM, "ddc-01", PACKAGES.vsphere.autonaming!));
        expect(checkInputs(VSPHERE_VM, { name: "ddc" }, "ddc-01").name).toBe("ddc");
        // Packages without a name attribute get none.
        expect("name" in checkInputs(XO_VM, {}, "vm-1")).toBe(false);
    });
});

describe("previewOutputs (Create in a preview)", () => {
    it("makes computed attributes the program left unset unknown, and keeps what it set", () => {
        const out = previewOutputs(VS, { name: "vs", seGroupRef: "/api/serviceenginegroup/?name=web" });
        expect(out.seGroupRef).toBe("/api/serviceenginegroup/?name=web");
        expect(out.uuid).toBe(UNKNOWN);
        expect(out.vsvipRef).toBe(UNKNOWN);
        // Optional, not computed: stays absent.
        expect("markers" in out).toBe(false);
    });

    it("makes Avi's optional+computed se_group_ref unknown when unset", () => {
        expect(previewOutputs(VS, { name: "vs" }).seGroupRef).toBe(UNKNOWN);
    });

    it("applies plugin framework defaults in the plan and never returns the Terraform id", () => {
        const out = previewOutputs(DG, { name: "dg" });
        expect(out.loadBalancingType).toBe("None");
        expect("id" in out).toBe(false);
        const zone = previewOutputs(ZONE, { name: "z", metadatas: [] });
        expect(zone.description).toBe(UNKNOWN);
        expect(zone.resourceLocationId).toBe(UNKNOWN);
        expect(zone.name).toBe("z");
    });

    it("uses the unknown value it is given", () => {
        const marker = Symbol("unknown");
        expect(previewOutputs(XO_VM, {}, marker).ipv4Addresses).toBe(marker);
    });

    it("echoes a type without schema data", () => {
        expect(previewOutputs("perfguard:example:Dom0Service", { tags: ["a"] })).toEqual({ tags: ["a"] });
    });
});

describe("createdOutputs (Create in an update)", () => {
    it("fills computed attributes with plausible values derived from the id", () => {
        const out = createdOutputs(VS, { name: "vs" }, "avi-0123456789ab");
        expect(out.uuid).toBe("avi-0123456789ab");
        expect(out.seGroupRef).toBe("/api/avi-0123456789ab");
        expect(createdOutputs(XO_VM, {}, "x").ipv4Addresses).toEqual([]);
    });

    it("keeps the id among the outputs, as bridged providers do (the state's outputs.id)", () => {
        expect(createdOutputs(ZONE, { name: "latam" }, "citrix-0123456789ab").id).toBe("citrix-0123456789ab");
        expect(createdOutputs(VS, { name: "vs" }, "avi-0123456789ab").id).toBe("avi-0123456789ab");
        expect(previewOutputs(ZONE, { name: "latam" })).not.toHaveProperty("id");
    });
});

describe("the plugin's URN helpers", () => {
    const urn = "urn:pulumi:dev::proj::perfguard:example:Dom0Service$citrix:index/zone:Zone::latam-zone";
    it("reads type and name, and derives a stable id", () => {
        expect(typeOfUrn(urn)).toBe(ZONE);
        expect(nameOfUrn(urn)).toBe("latam-zone");
        expect(fakeId("citrix", urn)).toBe(fakeId("citrix", urn));
        expect(fakeId("citrix", urn)).toMatch(/^citrix-[0-9a-f]{12}$/);
    });
});

describe("schema data", () => {
    it("names its source repository and commit for every package", () => {
        for (const [pkg, data] of Object.entries(PACKAGES)) {
            expect(data.package).toBe(pkg);
            expect(data.source.repository, pkg).toMatch(/^github\.com\/[\w.-]+\/[\w.-]+$/);
            expect(data.source.commit, pkg).toMatch(/^[0-9a-f]{40}$/);
        }
    });

    it("pluralises list attributes as the bridge names them (Citrix metadata -> metadatas)", () => {
        expect(PACKAGES.citrix.resources[ZONE].attributes.metadatas.tf).toBe("metadata");
        expect(PACKAGES.avi.resources[SEG].attributes.markers.tf).toBe("markers");
    });

    it("covers every custom resource type the examples declare", () => {
        const examples = path.resolve(__dirname, "..", "..", "examples");
        const types = new Set<string>();
        for (const dir of fs.readdirSync(examples)) {
            for (const file of fs.readdirSync(path.join(examples, dir)).filter((f) => f.endsWith(".ts"))) {
                const text = fs.readFileSync(path.join(examples, dir, file), "utf8");
                for (const m of text.matchAll(/"((?:citrix|avi|vsphere|xenorchestra):index\/\w+:\w+)"/g)) {
                    types.add(m[1]);
                }
                // The xen example uses @vates/pulumi-xenorchestra's classes.
                for (const m of text.matchAll(/new xoa\.(\w+)\(/g)) {
                    types.add(`xenorchestra:index/${m[1][0].toLowerCase()}${m[1].slice(1)}:${m[1]}`);
                }
            }
        }
        expect(types.size).toBeGreaterThan(8);
        for (const type of types) {
            expect(PACKAGES[type.split(":")[0]].resources[type], type).toBeDefined();
        }
    });
});
