/**
 * citrix-broker-throttle's externalControllers placed on the zones (policies/citrix/externalControllers.ts):
 * each key's controllers join the zone it names, once; keys naming no zone, or several, are kept to be reported.
 */
import { describe, expect, it } from "vitest";
import { ControlledZone, placeExternalControllers } from "../../../policies/citrix/externalControllers";
import { ZoneIndex } from "../../../policies/citrix/zoneJoin";
import { ResourceView } from "../../../policies/pack/resourceView";

const ZONE = "citrix:index/zone:Zone";

/** Zone `name` with the controllers it already has (this stack's or the inventory's), throttle 10 each. */
function zone(name: string, controllers: readonly string[]): ControlledZone {
    return {
        resource: new ResourceView(`urn:pulumi:prod::platform::${ZONE}::${name}`, ZONE, name, { name }),
        zoneName: name,
        nameUnknown: false,
        controllers: controllers.map((c) => ({ name: c, throttle: { state: "ok", value: 10, where: "test" } })),
    };
}

describe("placeExternalControllers", () => {
    const cases: Array<[string, Record<string, Array<{ name: string; throttle?: number }>>, string[], string[]]> = [
        ["baseline: a new controller joins zone apac", { apac: [{ name: "ddc-3", throttle: 20 }] }, ["ddc-1", "ddc-2", "ddc-3"], []],
        [
            "a controller the zone already has (any case) is counted once, as deployed",
            { apac: [{ name: "DDC-1", throttle: 20 }, { name: "ddc-3" }] },
            ["ddc-1", "ddc-2", "ddc-3"],
            [],
        ],
        ["the key in another case names the zone", { APAC: [{ name: "ddc-3" }] }, ["ddc-1", "ddc-2", "ddc-3"], []],
        ["a key naming no zone adds nothing and is kept", { apca: [{ name: "ddc-3" }] }, ["ddc-1", "ddc-2"], ["apca"]],
    ];
    it.each(cases)("%s", (_name, externals, names, unknown) => {
        const apac = zone("apac", ["ddc-1", "ddc-2"]);
        const keys = placeExternalControllers(externals, new ZoneIndex([apac], () => undefined), [apac]);
        expect(apac.controllers.map((c) => c.name)).toEqual(names);
        expect(keys.unknown).toEqual(unknown);
    });
});
