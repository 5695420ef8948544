/**
 * References by name also match a resource's aliases (the old URN the engine sends for a renamed
 * resource, pulumi/pulumi#11173): a Delivery Controller naming a zone by its old Pulumi name, or
 * by its old URN, still belongs to the renamed zone; a name no alias carries still matches nothing.
 */
import { describe, expect, it } from "vitest";
import { citrixSite } from "../../../policies/citrix/site";
import { aviStack } from "../../../policies/nsx-alb/seGroups";
import { StackView, viewOf } from "../../../policies/pack/resources";

const ZONE = "citrix:index/zone:Zone";
const VM = "vsphere:index/virtualMachine:VirtualMachine";
const OLD_URN = `urn:pulumi:dev::site::${ZONE}::emea-zone`;

function zone(aliases: unknown): ReturnType<typeof viewOf> {
    return viewOf({
        urn: `urn:pulumi:dev::site::${ZONE}::emea-east-zone`,
        type: ZONE,
        name: "emea-east-zone",
        props: { name: "EMEA satellite", metadatas: [{ name: "perfguard:rttMs", value: "160" }] },
        opts: { aliases },
    });
}

function controller(citrixZone: string): ReturnType<typeof viewOf> {
    return viewOf({
        urn: `urn:pulumi:dev::site::${VM}::ddc-1`,
        type: VM,
        name: "ddc-1",
        props: { extraConfig: { "guestinfo.perfguard.citrixRole": "deliveryController", "guestinfo.perfguard.citrixZone": citrixZone } },
    });
}

describe("aliases in name joins", () => {
    it("keeps the alias URNs the engine sent, and ignores what is not a URN", () => {
        expect(zone([OLD_URN, 7, "emea-zone"]).aliases).toEqual([OLD_URN]);
        expect(zone(undefined).aliases).toEqual([]);
        expect(zone([OLD_URN]).aliasNames).toEqual([OLD_URN, "emea-zone"]);
    });

    it.each([
        ["the Citrix name input (baseline)", [], "EMEA satellite", 1],
        ["the new Pulumi name", [], "emea-east-zone", 1],
        ["the old Pulumi name, no alias sent", [], "emea-zone", 0],
        ["the old Pulumi name, alias sent", [OLD_URN], "emea-zone", 1],
        ["the old URN, alias sent", [OLD_URN], OLD_URN, 1],
        ["another name, alias sent", [OLD_URN], "apac-zone", 0],
    ])("a controller naming %s", (_label, aliases, name, placed) => {
        const site = citrixSite(new StackView([zone(aliases), controller(name)]));
        expect(site.zones[0].controllers.length).toBe(placed);
    });
});

const SEG = "avi:index/serviceenginegroup:Serviceenginegroup";
const VS = "avi:index/virtualservice:Virtualservice";
const OLD_SEG_URN = `urn:pulumi:dev::lb::${SEG}::web-seg`;

function seGroup(name: string | undefined, aliases: unknown): ReturnType<typeof viewOf> {
    return viewOf({
        urn: `urn:pulumi:dev::lb::${SEG}::web-se-group`,
        type: SEG,
        name: "web-se-group",
        props: { ...(name === undefined ? {} : { name }), vcpusPerSe: "4", tenantRef: "/api/tenant?name=admin", cloudRef: "/api/cloud?name=Default-Cloud" },
        opts: { aliases },
    });
}

function virtualService(seGroupRef: string): ReturnType<typeof viewOf> {
    return viewOf({
        urn: `urn:pulumi:dev::lb::${VS}::shop-vs`,
        type: VS,
        name: "shop-vs",
        props: {
            name: "shop",
            seGroupRef,
            tenantRef: "/api/tenant?name=admin",
            cloudRef: "/api/cloud?name=Default-Cloud",
            markers: [{ key: "perfguard:l7Rps", values: ["1000"] }],
        },
    });
}

describe("aliases in the NSX ALB SE group join", () => {
    it.each([
        ["its Avi name input (baseline)", "web", [], "/api/serviceenginegroup/?name=web", "web-se-group"],
        ["its Pulumi name, no name input", undefined, [], "/api/serviceenginegroup/?name=web-se-group", "web-se-group"],
        ["its old Pulumi name, no name input, no alias sent", undefined, [], "/api/serviceenginegroup/?name=web-seg", undefined],
        ["its old Pulumi name, no name input, alias sent", undefined, [OLD_SEG_URN], "/api/serviceenginegroup/?name=web-seg", "web-se-group"],
        // With a name input the Avi object keeps that name through a rename: the old Pulumi name is no Avi name.
        ["its old Pulumi name, name input set, alias sent", "web", [OLD_SEG_URN], "/api/serviceenginegroup/?name=web-seg", undefined],
    ])("a VS naming %s", (_label, name, aliases, ref, placedOn) => {
        const avi = aviStack(new StackView([seGroup(name, aliases), virtualService(ref)]));
        expect(avi.groups.length).toBe(1);
        expect(avi.placements[0].group?.resource?.name).toBe(placedOn);
    });
});
