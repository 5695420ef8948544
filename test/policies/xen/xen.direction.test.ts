/**
 * The direction the Xen share model rests on, said as the source measured it: wget downloads
 * (receive) in dom0 and the domUs alike; a guest's receive passes netback in dom0 (netback
 * transmits into its VIF); a XenServer VIF rate limit caps what the guest transmits only, and its
 * kbps unit is not stated by the source. No text calls the measured traffic "sending".
 */
import { describe, expect, it } from "vitest";
import table from "../../../model/data/xen-network.json";
import { XEN_SHARE_SOURCE } from "../../../model/xenShares";
import { NOT_CHECKED } from "../../../policies/xen/evaluation";
import { FACT_KEYS } from "../../../policies/pack/factKeys";
import { formatXenSizing, sizeXen } from "../../../cli/sizeXen";

const vifCap = FACT_KEYS.find((k) => k.key === "vifCapMBps");

describe("the Xen model's direction and the VIF limit's unit", () => {
    // [where, text, what it must say, what it must not]
    const cases: Array<[string, () => string, RegExp, RegExp | undefined]> = [
        ["the model's source line names netback on the receive path", () => XEN_SHARE_SOURCE, /receive; a guest's receive passes netback in dom0/, undefined],
        [
            "the data's netback note gives both directions",
            () => table.otherPublishedFacts.netback,
            /receive \(what the source measured\) NIC -> bridge -> netback -> netfront/,
            undefined,
        ],
        [
            "the data's VIF note: transmit only, unit not verified",
            () => table.otherPublishedFacts.vifRateLimit,
            /transmit only, not what it receives.*Unit not verified/,
            undefined,
        ],
        ["the vifCapMBps fact: what it caps, unit not verified", () => vifCap?.meaning ?? "", /caps what the guest transmits.*unit not verified/, undefined],
        ["not checked: another traffic source, not a sender", () => NOT_CHECKED.uncertain, /another traffic source on its host/, /sender/],
        [
            "size xen: guests receive as much as they can (as measured)",
            () => formatXenSizing(sizeXen({ linkMBps: 11.1, guests: 2, dom0Share: 0.5 })),
            /receiving as much as they can/,
            /sending/,
        ],
    ];
    it.each(cases)("%s", (_name, text, says, not) => {
        expect(text()).toMatch(says);
        if (not) {
            expect(text()).not.toMatch(not);
        }
    });
});
