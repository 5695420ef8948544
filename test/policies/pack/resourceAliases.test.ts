/**
 * References by name also match a resource's aliases (the old URN the engine sends for a renamed
 * resource, pulumi/pulumi#11173): a Delivery Controller naming a zone by its old Pulumi name, or
 * by its old URN, still belongs to the renamed zone; a name no alias carries still matches nothing.
 */
import { describe, expect, it } from "vitest";
import { citrixSite } from "../../../policies/citrix/site";
import { StackView, viewOf } from "../../../policies/pack/resources";

const ZONE = "citrix:index/zone:Zone";
const VM = "vsphere:index/virtualMachine:VirtualMachine";
const OLD_URN = `urn:pulumi:dev::site::${ZONE}::emea-zone`;

function zone(aliases: unknown): ReturnType<typeof viewOf> {
    return viewOf({
        urn: `urn:pulumi:dev::site::${ZONE}::emea-east-zone`, type: ZONE, name: "emea-east-zone",
        props: { name: "EMEA satellite", metadatas: [{ name: "perfguard:rttMs", value: "160" }] },
        opts: { aliases },
    } as Parameters<typeof viewOf>[0]);
}

function controller(citrixZone: string): ReturnType<typeof viewOf> {
    return viewOf({
        urn: `urn:pulumi:dev::site::${VM}::ddc-1`, type: VM, name: "ddc-1",
        props: { extraConfig: { "guestinfo.perfguard.citrixRole": "deliveryController", "guestinfo.perfguard.citrixZone": citrixZone } },
    } as Parameters<typeof viewOf>[0]);
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
