/**
 * The synthetic Site `perfguard size citrix` evaluates: one zone, its Delivery Controllers, one
 * machine catalog and one Delivery Group per group, declared with the same facts a user's stack
 * would carry (docs/facts.md). size reads every figure from the Citrix evaluation of this stack
 * (policies/citrix/evaluation.ts), so a size figure is the figure the policies judge on the
 * same Site: nothing here computes a figure.
 */
import { CATALOG_TYPE, citrixEvaluation, CitrixEvaluation, GROUP_TYPE, ZONE_TYPE } from "../policies/citrix/evaluation";
import { ResourceView, StackView } from "../policies/pack/resources";

/** The vSphere VM type a Delivery Controller is declared on (facts in extraConfig, docs/facts.md#vsphere). */
const VM_TYPE = "vsphere:index/virtualMachine:VirtualMachine";
const ZONE_NAME = "size-zone";

/** One Delivery Group of the synthetic Site. */
export interface SizingGroup {
    readonly machines: number;
    /** Its own perfguard:peakConcurrentLaunches (absent: it shares the zone's peak by machines). */
    readonly peak?: number;
    /** Its own perfguard:users (absent: its share of the zone's users by machines). */
    readonly users?: number;
}

/** The Site: one zone at `rttMs` with `controllers` Delivery Controllers and its groups. */
export interface SizingSite {
    readonly rttMs: number;
    readonly controllers: number;
    /** perfguard:throttleMaxConcurrentTransactions on every controller (absent: not throttled). */
    readonly throttle?: number;
    /** The zone's perfguard:peakConcurrentLaunches and perfguard:users (absent: not declared). */
    readonly zonePeak?: number;
    readonly zoneUsers?: number;
    readonly groups: readonly SizingGroup[];
}

/** A number as a fact value: a plain decimal (facts take no exponent). */
function plain(value: number): string {
    const text = String(value);
    return /e/i.test(text) ? value.toFixed(20).replace(/\.?0+$/, "") : text;
}

function facts(values: Record<string, number | undefined>): Array<{ name: string; value: string }> {
    return Object.entries(values)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => ({ name: `perfguard:${k}`, value: plain(v as number) }));
}

function urn(type: string, name: string): string {
    return `urn:pulumi:size::perfguard-size::${type}::${name}`;
}

/** The stack a user would declare for `site` (O(groups + controllers)). */
export function sizingStack(site: SizingSite): StackView {
    const zoneUrn = urn(ZONE_TYPE, ZONE_NAME);
    const resources: ResourceView[] = [
        new ResourceView(zoneUrn, ZONE_TYPE, ZONE_NAME, {
            name: ZONE_NAME,
            metadatas: facts({ rttMs: site.rttMs, peakConcurrentLaunches: site.zonePeak, users: site.zoneUsers }),
        }),
    ];
    for (let i = 1; i <= site.controllers; i++) {
        resources.push(
            new ResourceView(urn(VM_TYPE, `ddc-${i}`), VM_TYPE, `ddc-${i}`, {
                name: `ddc-${i}`,
                extraConfig: {
                    "guestinfo.perfguard.citrixRole": "deliveryController",
                    "guestinfo.perfguard.citrixZone": ZONE_NAME,
                    ...(site.throttle === undefined ? {} : { "guestinfo.perfguard.throttleMaxConcurrentTransactions": plain(site.throttle) }),
                },
            }),
        );
    }
    site.groups.forEach((g, i) => {
        const catalogUrn = urn(CATALOG_TYPE, `catalog-${i + 1}`);
        resources.push(
            new ResourceView(
                catalogUrn,
                CATALOG_TYPE,
                `catalog-${i + 1}`,
                { name: `catalog-${i + 1}`, provisioningScheme: { numberOfTotalMachines: g.machines } },
                { zone: [zoneUrn] },
            ),
            new ResourceView(
                urn(GROUP_TYPE, `group-${i + 1}`),
                GROUP_TYPE,
                `group-${i + 1}`,
                {
                    name: `group-${i + 1}`,
                    associatedMachineCatalogs: [{ machineCount: g.machines }],
                    metadatas: facts({ peakConcurrentLaunches: g.peak, users: g.users }),
                },
                { associatedMachineCatalogs: [catalogUrn] },
            ),
        );
    });
    return new StackView(resources);
}

/** The Citrix evaluation of `site` at these targets (citrix-brokering-capacity's and citrix-broker-throttle's). */
export function evaluateSizingSite(site: SizingSite, targets: { targetResponseS: number; errorBudgetPct: number }): CitrixEvaluation {
    return citrixEvaluation(sizingStack(site), { targetResponseS: targets.targetResponseS, errorBudgetPct: targets.errorBudgetPct });
}
