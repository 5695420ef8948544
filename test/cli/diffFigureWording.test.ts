/**
 * One wording for a throttle figure that has no number, in `check --report` and `perfguard diff`:
 * "no cap" where a Delivery Controller sets no throttle (a known state, from Figure.state), "not
 * checked" only where its throttle is unknown in the preview. A compliant base, one change per case.
 */
import { describe, expect, it } from "vitest";
import { diffStates } from "../../cli/diff/compare";
import { stackFigures } from "../../cli/diff/figures";
import { DiffReport, renderText } from "../../cli/diff/render";
import { citrixSection } from "../../cli/report/citrix";
import { ResourceView, StackView } from "../../policies/pack/resources";
import { TestResource, UNKNOWN_VALUE, urnOf } from "../support/policyHarness";
import { changed, siteOf, SiteSpec } from "../policies/citrix/citrixSpec";

function viewOf(resources: TestResource[]): StackView {
    const urns = new Map(resources.map((r) => [r.name, r.urn ?? urnOf(r.type, r.name)]));
    return new StackView(
        resources.map(
            (r) =>
                new ResourceView(
                    urns.get(r.name)!,
                    r.type,
                    r.name,
                    structuredClone(r.props),
                    Object.fromEntries(Object.entries(r.propertyDependencies ?? {}).map(([k, names]) => [k, names.map((n) => urns.get(n)!)])),
                ),
        ),
    );
}

/** Controller d2's throttle unknown in the preview. */
function unknownThrottle(resources: TestResource[]): TestResource[] {
    return resources.map((r) =>
        r.name === "d2"
            ? {
                  ...r,
                  props: {
                      ...r.props,
                      extraConfig: { ...(r.props.extraConfig as object), "guestinfo.perfguard.throttleMaxConcurrentTransactions": UNKNOWN_VALUE },
                  },
              }
            : r,
    );
}

function diffText(base: TestResource[], head: TestResource[]): string {
    const result = diffStates({ figures: stackFigures(viewOf(base), {}), verdicts: [] }, { figures: stackFigures(viewOf(head), {}), verdicts: [] });
    const side = { file: "x.json", kind: "export", resources: base.length, unknownValues: 0 };
    return renderText({ base: side, head: side, result, exitCode: 0, failOn: "new-mandatory", plots: [] } satisfies DiffReport);
}

/** The report's cell under "throttles into its lock" for the lock named `label`. */
function reportCell(resources: TestResource[], label: string): string {
    const row = citrixSection(viewOf(resources), {})
        .split("\n")
        .find((l) => l.startsWith(`| ${label} |`))!;
    return row.split(" | ")[7];
}

/** Zone a at 160 ms, peak 20, two controllers at 12: 24 into the lock. */
const GROUPED: SiteSpec = {
    zones: [{ name: "a", rtt: 160, peak: 20, users: 1000 }],
    groups: [{ name: "g", zone: "a" }],
    controllers: [
        { name: "d1", zone: "a", throttle: 12 },
        { name: "d2", zone: "a", throttle: 12 },
    ],
};
/** The same zone without a Delivery Group: its own lock, the throttles on the zone entity. */
const ZONE_LOCK = changed(GROUPED, (s) => {
    s.groups = [];
});

describe("a throttle figure without a number reads the same in check --report and diff", () => {
    it.each([
        ["a Delivery Group, both controllers throttled (baseline)", GROUPED, (r: TestResource[]) => r, 'Delivery Group "g-group" (name "g")', "24", undefined],
        [
            "a Delivery Group, d2 sets no throttle",
            GROUPED,
            () =>
                siteOf(
                    changed(GROUPED, (s) => {
                        delete s.controllers[1].throttle;
                    }),
                ),
            'Delivery Group "g-group" (name "g")',
            "no cap",
            "      throttles into its lock (first come): 24 → no cap (changed)\n",
        ],
        [
            "a Delivery Group, d2's throttle unknown in the preview",
            GROUPED,
            unknownThrottle,
            'Delivery Group "g-group" (name "g")',
            "-",
            "      throttles into its lock (first come): 24 → not checked: a Delivery Controller feeding it has a throttle unknown in this preview (changed)\n",
        ],
        [
            "a zone's own lock, d2 sets no throttle",
            ZONE_LOCK,
            () =>
                siteOf(
                    changed(ZONE_LOCK, (s) => {
                        delete s.controllers[1].throttle;
                    }),
                ),
            'lock of zone "a-zone" (name "a")',
            "no cap",
            "      throttles (sum): 24 → no cap (changed)\n",
        ],
        [
            "a zone's own lock, d2's throttle unknown in the preview",
            ZONE_LOCK,
            unknownThrottle,
            'lock of zone "a-zone" (name "a")',
            "-",
            "      throttles (sum): 24 → not checked: a Delivery Controller's throttle is unknown in this preview (changed)\n",
        ],
    ] as const)("%s", (_name, spec, change, label, cell, diffRow) => {
        const base = siteOf(spec);
        const head = change(siteOf(spec));
        expect(reportCell(base, label)).toBe("24");
        expect(reportCell(head, label)).toBe(cell);
        const text = diffText(base, head);
        if (diffRow === undefined) {
            expect(text).toContain("no change in figures or verdicts");
        } else {
            expect(text).toContain(diffRow);
        }
    });
});
