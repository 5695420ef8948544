import { describe, expect, it } from "vitest";
import { factAsWritten, FactRead, misplacedFacts, readFacts } from "../../policies/pack/facts";
import { ResourceView, StackView } from "../../policies/pack/resources";
import { numVs } from "../../policies/pack/format";
import { describeValue, foldCase, parseGoBool, parseGoInt, parsePlainDecimal } from "../../policies/pack/values";
import { UNKNOWN_VALUE } from "../support/policyHarness";

describe("parsePlainDecimal", () => {
    it.each([
        ["12", 12],
        ["12.5", 12.5],
        [" 12 ", 12],
        ["0", 0],
        ["-5", -5],
        [".5", 0.5],
        [7, 7],
    ])("accepts %j as %j", (input, expected) => {
        expect(parsePlainDecimal(input)).toBe(expected);
    });
    it.each(["1e3", "160ms", "NaN", "Infinity", "", " ", "0x10", "1,5", "12.", null, true, {}, Number.NaN, Number.POSITIVE_INFINITY])("rejects %j", (input) => {
        expect(parsePlainDecimal(input)).toBeUndefined();
    });
});

describe("Go strconv parsing", () => {
    it.each([
        ["4", 4],
        ["+4", 4],
        ["-3", -3],
        ["0", 0],
        [8, 8],
    ])("ParseInt accepts %j", (input, expected) => {
        expect(parseGoInt(input)).toBe(expected);
    });
    it.each([" 4", "4.0", "4 ", "1e3", "", "0x10", "9223372036854775808", 4.5])("ParseInt rejects %j", (input) => {
        expect(parseGoInt(input)).toBeUndefined();
    });
    it.each([
        ["true", true],
        ["True", true],
        ["TRUE", true],
        ["t", true],
        ["1", true],
        ["false", false],
        ["F", false],
        ["0", false],
        [true, true],
    ])("ParseBool accepts %j", (input, expected) => {
        expect(parseGoBool(input)).toBe(expected);
    });
    it.each(["yes", "tRuE", " true", "", "2"])("ParseBool rejects %j", (input) => {
        expect(parseGoBool(input)).toBeUndefined();
    });
});

describe("describeValue never echoes long or odd values", () => {
    it.each([
        ["160ms", '"160ms"'],
        ["s3cr3t-password-that-is-long", "a value of 28 characters"],
        ["a=b", "a value of 3 characters"],
        [[1, 2], "a list of 2 items"],
    ])("%j -> %s", (input, expected) => {
        expect(describeValue(input)).toBe(expected);
    });
});

const VSPHERE_VM = "vsphere:index/virtualMachine:VirtualMachine";
const XEN_VM = "xenorchestra:index/vm:Vm";
const ZONE = "citrix:index/zone:Zone";

describe("readFacts: every carrier", () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
        ["tags map", { tags: { "perfguard:rttMs": "160" } }, "perfguard:rttMs in tags"],
        ["tags list", { tags: ["owner=team", "perfguard:rttMs=160"] }, "perfguard:rttMs in tags list"],
        ["metadata", { metadata: [{ name: "perfguard:rttMs", value: "160" }] }, "perfguard:rttMs in metadata"],
        ["metadatas (the bridge's plural)", { metadatas: [{ name: "perfguard:rttMs", value: "160" }] }, "perfguard:rttMs in metadatas"],
        ["markers", { markers: [{ key: "perfguard:rttMs", values: ["160"] }] }, "perfguard:rttMs in markers"],
        ["extraConfig guestinfo", { extraConfig: { "guestinfo.perfguard.rttMs": "160", "guestinfo.hostname": "x" } }, "perfguard:rttMs in extraConfig"],
        ["underscore prefix, any case", { tags: { PERFGUARD_RTTMS: " 160 " } }, "perfguard:rttMs in tags"],
    ];
    it.each(cases)("%s", (_name, props, where) => {
        const facts = readFacts(props);
        expect(facts.problems).toEqual([]);
        expect(facts.number("rttMs")).toEqual({ state: "ok", value: 160, where });
    });

    it("same value twice is not a conflict", () => {
        const facts = readFacts({ tags: { "perfguard:rttMs": "160" }, metadata: [{ name: "perfguard_rttms", value: "160.0" }] });
        expect(facts.problems).toEqual([]);
    });

    it("never throws on junk", () => {
        for (const junk of [
            null,
            5,
            "x",
            [],
            { tags: 5 },
            { tags: [null, 5, {}] },
            { metadata: [null, { name: 5 }] },
            { markers: [{ key: "perfguard:l7Rps", values: "x" }] },
            { extraConfig: [1] },
        ]) {
            expect(() => readFacts(junk)).not.toThrow();
        }
    });
});

/**
 * Unknowns are per value, never per container. Baseline: a Delivery Controller's facts with one
 * ordinary entry per carrier; each case makes one thing unknown and states every read.
 */
describe("readFacts: unknowns per value", () => {
    type Reads = { role: string; zone: string; throttle: string; hidden: number; incomplete: boolean };
    const baseline = (): Record<string, unknown> => ({
        tags: ["owner=vdi", "perfguard:citrixRole=deliveryController", "perfguard:citrixZone=emea"],
        metadatas: [{ name: "owner", value: "vdi" }],
    });
    const reads = (props: unknown): Reads => {
        const facts = readFacts(props);
        return {
            role: facts.text("citrixRole").state,
            zone: facts.text("citrixZone").state,
            throttle: facts.number("throttleMaxConcurrentTransactions").state,
            hidden: facts.hidden,
            incomplete: facts.incomplete,
        };
    };
    const cases: Array<[string, (p: Record<string, unknown>) => unknown, Reads]> = [
        ["baseline", (p) => p, { role: "ok", zone: "ok", throttle: "absent", hidden: 0, incomplete: false }],
        [
            "one unknown element of the tags list hides only itself",
            (p) => ({ ...p, tags: [...(p.tags as string[]), UNKNOWN_VALUE] }),
            { role: "ok", zone: "ok", throttle: "absent", hidden: 1, incomplete: true },
        ],
        [
            "an unknown metadatas item hides only itself",
            (p) => ({ ...p, metadatas: [UNKNOWN_VALUE, { name: UNKNOWN_VALUE, value: "1" }] }),
            { role: "ok", zone: "ok", throttle: "absent", hidden: 2, incomplete: true },
        ],
        [
            "an unknown value makes its key unknown, no other",
            (p) => ({ ...p, metadatas: [{ name: "perfguard:throttleMaxConcurrentTransactions", value: UNKNOWN_VALUE }] }),
            { role: "ok", zone: "ok", throttle: "unknown", hidden: 0, incomplete: false },
        ],
        [
            "an unknown marker value makes its key unknown",
            (p) => ({ ...p, markers: [{ key: "perfguard:throttleMaxConcurrentTransactions", values: ["4", UNKNOWN_VALUE] }] }),
            { role: "ok", zone: "ok", throttle: "unknown", hidden: 0, incomplete: false },
        ],
        [
            "a container unknown as a whole: every key not found reads unknown",
            (p) => ({ ...p, metadatas: UNKNOWN_VALUE }),
            { role: "ok", zone: "ok", throttle: "unknown", hidden: 0, incomplete: true },
        ],
        [
            "the tags unknown as a whole",
            (p) => ({ ...p, tags: UNKNOWN_VALUE }),
            { role: "unknown", zone: "unknown", throttle: "unknown", hidden: 0, incomplete: true },
        ],
        [
            "extraConfig unknown as a whole",
            (p) => ({ ...p, extraConfig: UNKNOWN_VALUE }),
            { role: "ok", zone: "ok", throttle: "unknown", hidden: 0, incomplete: true },
        ],
        ["the props unknown as a whole", () => UNKNOWN_VALUE, { role: "unknown", zone: "unknown", throttle: "unknown", hidden: 0, incomplete: true }],
    ];
    it.each(cases)("%s", (_name, change, expected) => {
        expect(reads(change(baseline()))).toEqual(expected);
    });
});

describe("readFacts: values that cannot be used", () => {
    it.each([
        [
            "unit suffix",
            { tags: { "perfguard:rttMs": "160ms" } },
            'perfguard:rttMs has "160ms", not a plain decimal in range',
            "set perfguard:rttMs to a plain decimal of ms from 0 to 10000, without a unit",
            "perfguard:rttMs in tags",
        ],
        [
            "exponent",
            { tags: ["perfguard:rttMs=1e3"] },
            'perfguard:rttMs has "1e3", not a plain decimal in range',
            "set perfguard:rttMs to a plain decimal of ms from 0 to 10000, without a unit",
            "perfguard:rttMs in tags list",
        ],
        [
            "out of range",
            { tags: ["perfguard:rttMs=20000"] },
            'perfguard:rttMs has "20000", not a plain decimal in range',
            "set perfguard:rttMs to a plain decimal of ms from 0 to 10000, without a unit",
            "perfguard:rttMs in tags list",
        ],
        [
            "fraction for a count",
            { tags: ["perfguard:users=12.5"] },
            'perfguard:users has "12.5", not a whole number in range',
            "set perfguard:users to a whole number of users from 0 to 10000000, without a unit",
            "perfguard:users in tags list",
        ],
        [
            "long value shown by length",
            { tags: { "perfguard:rttMs": "x".repeat(40) } },
            "perfguard:rttMs has a value of 40 characters, not a plain decimal in range",
            "set perfguard:rttMs to a plain decimal of ms from 0 to 10000, without a unit",
            "perfguard:rttMs in tags",
        ],
        [
            "bad enum, with a suggestion",
            { tags: ["perfguard:citrixRole=deliveryControler"] },
            "perfguard:citrixRole has a value of 17 characters, not one of deliveryController (did you mean deliveryController?)",
            "set perfguard:citrixRole to one of deliveryController",
            "perfguard:citrixRole in tags list",
        ],
        [
            "empty marker values",
            { markers: [{ key: "perfguard:l7Rps", values: [] }] },
            "perfguard:l7Rps has no value, not a plain decimal in range",
            "set perfguard:l7Rps to a plain decimal of RPS from 0 to 10000000000, without a unit",
            "perfguard:l7Rps in markers",
        ],
    ])("%s", (_name, props, problem, fix, basis) => {
        const facts = readFacts(props);
        expect(facts.problems.map((p) => ({ kind: p.kind, problem: p.problem, fix: p.fix, basis: p.basis }))).toEqual([
            { kind: "value", problem, fix, basis: [basis] },
        ]);
    });
    it("a conflict names both values in its basis", () => {
        const [p] = readFacts({ tags: { "perfguard:rttMs": "160" }, metadata: [{ name: "perfguard:rttMs", value: "200" }] }).problems;
        expect(p).toMatchObject({ kind: "value", problem: "perfguard:rttMs has 2 different values", basis: ["160 in tags, 200 in metadata"] });
    });
    it("a tags list entry without a value", () => {
        const [p] = readFacts({ tags: ["perfguard:rttMs"] }).problems;
        expect(p).toMatchObject({ kind: "value", problem: 'tags list entry perfguard:rttMs has no "=value"', fix: "write perfguard:rttMs=<value>" });
    });
});

describe("readFacts: keys that were meant as facts (near misses)", () => {
    it.each([
        ["perfguard-rttMs (another separator)", { tags: ["perfguard-rttMs=300"] }, '"perfguard-rttMs"', "rttMs"],
        ["perfguard.rttMs", { tags: { "perfguard.rttMs": "300" } }, '"perfguard.rttMs"', "rttMs"],
        ["PerfGuard.rttMs in metadata", { metadata: [{ name: "PerfGuard.rttMs", value: "300" }] }, '"PerfGuard.rttMs"', "rttMs"],
        ["perfguard:rtMs (one edit)", { tags: { "perfguard:rtMs": "300" } }, '"perfguard:rtMs"', "rttMs"],
        ["perfgaurd:rttMs (two edits)", { tags: { "perfgaurd:rttMs": "300" } }, '"perfgaurd:rttMs"', "rttMs"],
        ["prefguard:l7Rps in markers", { markers: [{ key: "prefguard:l7Rps", values: ["300"] }] }, '"prefguard:l7Rps"', "l7Rps"],
        ["guestinfo.perfguard.rtMs", { extraConfig: { "guestinfo.perfguard.rtMs": "300" } }, '"guestinfo.perfguard.rtMs"', "rttMs"],
    ])("%s: did you mean", (_name, props, shown, meant) => {
        const problems = readFacts(props).problems;
        expect(problems.map((p) => [p.kind, p.problem, p.fix])).toEqual([
            [
                "key",
                `${shown} is not read as a fact (did you mean perfguard:${meant}?)`,
                `rename it perfguard:${meant} (prefix perfguard: or perfguard_, any case, no spaces)`,
            ],
        ]);
    });
    it("a perfguard: key that is no fact key and close to none", () => {
        expect(readFacts({ tags: { "perfguard:version": "1" } }).problems.map((p) => [p.kind, p.problem])).toEqual([
            ["key", '"perfguard:version" is not a perfguard fact key'],
        ]);
    });
    it.each(["perfguard-exempt", "perfguard.version", "perfguard-scan", "perfguard", "performance:tier", "owner", "project", "pci-scope", "perf"])(
        "leaves the ordinary tag %s alone",
        (key) => {
            expect(readFacts({ tags: { [key]: "x" } }).problems).toEqual([]);
            expect(readFacts({ tags: [`${key}=x`] }).problems).toEqual([]);
        },
    );
    it.each([
        ["spaces around the key", { tags: { " perfguard:rttMs ": "160" } }],
        ["spaces in a metadata name", { metadata: [{ name: "perfguard:rttMs ", value: "160" }] }],
        ["spaces in a tags list entry", { tags: ["perfguard:rttMs = 160"] }],
    ])("accepts %s", (_name, props) => {
        const facts = readFacts(props);
        expect(facts.problems).toEqual([]);
        expect(facts.number("rttMs")).toMatchObject({ state: "ok", value: 160 });
    });
    it("escapes control characters in a quoted key", () => {
        const [p] = readFacts({ tags: { "perfguard-rttMs\u001b": "1" } }).problems;
        expect(p.problem).toBe('"perfguard-rttMs\\u001b" is not read as a fact (did you mean perfguard:rttMs?)');
        // eslint-disable-next-line no-control-regex -- matching control characters is the point
        expect(/[\u0000-\u001f]/.test(p.problem + p.fix + p.basis.join(""))).toBe(false);
    });
});

describe("readFacts: a perfguard: key in extraConfig, where facts are guestinfo.perfguard.<key>", () => {
    it.each<[string, Record<string, string>, Array<[string, string]>]>([
        // [case, extraConfig, [problem, fix] expected]
        ["baseline: guestinfo.perfguard.<key> is read", { "guestinfo.perfguard.throttleMaxConcurrentTransactions": "12" }, []],
        [
            "a known key with the tag prefix",
            { "perfguard:throttleMaxConcurrentTransactions": "12" },
            [
                [
                    '"perfguard:throttleMaxConcurrentTransactions" in extraConfig is not read as a fact (did you mean guestinfo.perfguard.throttleMaxConcurrentTransactions?)',
                    "rename it guestinfo.perfguard.throttleMaxConcurrentTransactions",
                ],
            ],
        ],
        [
            "the label prefix, another case",
            { PERFGUARD_rttMs: "160" },
            [['"PERFGUARD_rttMs" in extraConfig is not read as a fact (did you mean guestinfo.perfguard.rttMs?)', "rename it guestinfo.perfguard.rttMs"]],
        ],
        [
            "an unknown key",
            { "perfguard:nothing": "1" },
            [['"perfguard:nothing" in extraConfig is not read as a fact', "name it guestinfo.perfguard.<key> with a key from docs/facts.md"]],
        ],
        ["ordinary settings are left alone", { "guestinfo.hostname": "x", "perfguard-scan": "1", "svga.present": "TRUE" }, []],
    ])("%s", (_name, extraConfig, expected) => {
        const facts = readFacts({ extraConfig }, "vsphere:index/virtualMachine:VirtualMachine");
        expect(facts.problems.map((p) => [p.problem, p.fix])).toEqual(expected);
        expect(facts.problems.every((p) => p.kind === "key")).toBe(true);
    });
});

describe("factAsWritten: a fact in the carrier of the resource's provider", () => {
    it.each([
        // [type, written]
        ["vsphere:index/virtualMachine:VirtualMachine", 'extraConfig "guestinfo.perfguard.throttleMaxConcurrentTransactions": "12"'],
        ["xenorchestra:index/vm:Vm", 'tags "perfguard:throttleMaxConcurrentTransactions=12"'],
        ["citrix:index/zone:Zone", 'metadatas { name: "perfguard:throttleMaxConcurrentTransactions", value: "12" }'],
        ["avi:index/virtualservice:Virtualservice", 'markers { key: "perfguard:throttleMaxConcurrentTransactions", values: ["12"] }'],
        ["aws:ec2/instance:Instance", 'tags { "perfguard:throttleMaxConcurrentTransactions": "12" }'],
    ])("%s", (type, written) => {
        expect(factAsWritten(type, "throttleMaxConcurrentTransactions", "12")).toBe(written);
    });
    it.each([
        // Each written form, read back on its type, gives the fact (the fix says what perfguard reads).
        ["vsphere:index/virtualMachine:VirtualMachine", { extraConfig: { "guestinfo.perfguard.throttleMaxConcurrentTransactions": "12" } }],
        ["xenorchestra:index/vm:Vm", { tags: ["perfguard:throttleMaxConcurrentTransactions=12"] }],
        ["citrix:index/zone:Zone", { metadatas: [{ name: "perfguard:throttleMaxConcurrentTransactions", value: "12" }] }],
        ["avi:index/virtualservice:Virtualservice", { markers: [{ key: "perfguard:throttleMaxConcurrentTransactions", values: ["12"] }] }],
        ["aws:ec2/instance:Instance", { tags: { "perfguard:throttleMaxConcurrentTransactions": "12" } }],
    ])("the form for %s is read back", (type, props) => {
        expect(readFacts(props, type).number("throttleMaxConcurrentTransactions")).toMatchObject({ state: "ok", value: 12 });
    });
});

describe("readFacts: carriers the provider rejects", () => {
    it.each([
        ["a vSphere VM's tags hold tag ids", VSPHERE_VM, "vSphere tag ids", "vsphere:index/tag:Tag"],
        ["a Citrix zone's tags hold tag GUIDs", ZONE, "Citrix tag GUIDs", "metadatas"],
    ])("%s: still read, and reported", (_name, type, what, carrier) => {
        const facts = readFacts({ tags: ["perfguard:citrixRole=deliveryController", "perfguard:citrixZone=emea"] }, type);
        expect(facts.text("citrixRole")).toMatchObject({ state: "ok", value: "deliveryController" });
        expect(facts.problems.map((p) => p.kind)).toEqual(["carrier"]);
        expect(facts.problems[0].problem).toBe(`tags carries 2 facts but holds ${what}`);
        expect(facts.problems[0].basis[0]).toBe("facts in tags (read, so the checks still run): perfguard:citrixRole, perfguard:citrixZone");
        expect(facts.problems[0].fix).toContain(carrier);
    });
    it("a Xen Orchestra VM's tags are plain strings: no problem", () => {
        expect(readFacts({ tags: ["perfguard:networkMBps=30"] }, XEN_VM).problems).toEqual([]);
    });
});

describe("case folding is locale-independent", () => {
    it("folds keys and enum values without the host locale", () => {
        expect(foldCase("ß")).toBe(foldCase("SS"));
        expect(foldCase("PERFGUARD:CITRIXROLE")).toBe("perfguard:citrixrole");
        expect(readFacts({ tags: { "PERFGUARD:CITRIXROLE": "DELIVERYCONTROLLER" } }).enum("citrixRole")).toMatchObject({
            state: "ok",
            value: "deliveryController",
        });
    });
});

describe("misplaced facts: a fact no policy reads on that resource", () => {
    it.each([
        ["perfguard:rttMs on a VM", VSPHERE_VM, { extraConfig: { "guestinfo.perfguard.rttMs": "160" } }, ["perfguard:rttMs"]],
        [
            "a throttle on a VM that is no Delivery Controller",
            VSPHERE_VM,
            { extraConfig: { "guestinfo.perfguard.throttleMaxConcurrentTransactions": "12" } },
            ["perfguard:throttleMaxConcurrentTransactions"],
        ],
        [
            "a throttle on a Delivery Controller",
            VSPHERE_VM,
            { extraConfig: { "guestinfo.perfguard.citrixRole": "deliveryController", "guestinfo.perfguard.throttleMaxConcurrentTransactions": "12" } },
            [],
        ],
        ["rttMs on a zone", ZONE, { metadatas: [{ name: "perfguard:rttMs", value: "160" }] }, []],
        ["networkMBps on a dom0 service", "example:index:Dom0Service", { tags: ["perfguard:xenDomain=dom0", "perfguard:networkMBps=60"] }, []],
        ["networkMBps on a zone", ZONE, { metadatas: [{ name: "perfguard:networkMBps", value: "60" }] }, ["perfguard:networkMBps"]],
        ["a waiver anywhere", XEN_VM, { tags: ["perfguard:waive=xen-dom0-workload"] }, []],
    ])("%s", (_name, type, props, expected) => {
        expect(misplacedFacts(readFacts(props, type), type).map((m) => m.key)).toEqual(expected);
    });
});

describe("vSphere tag objects carry a VM's facts in the stack", () => {
    const TAG = "vsphere:index/tag:Tag";
    const CATEGORY = "vsphere:index/tagCategory:TagCategory";
    const urn = (type: string, name: string) => `urn:pulumi:s::p::${type}::${name}`;
    const view = (type: string, name: string, props: unknown, deps: Record<string, string[]> = {}) =>
        new ResourceView(urn(type, name), type, name, props, deps);

    it("a preview: ids unknown, tags joined through property dependencies", () => {
        const role = view(TAG, "role", { name: "perfguard:citrixRole=deliveryController", categoryId: UNKNOWN_VALUE });
        const category = view(CATEGORY, "pg", { name: "perfguard" });
        const zone = view(TAG, "zone", { name: "citrixZone=emea", categoryId: UNKNOWN_VALUE }, { categoryId: [category.urn] });
        const vm = view(VSPHERE_VM, "ddc-1", { tags: [UNKNOWN_VALUE, UNKNOWN_VALUE] }, { tags: [role.urn, zone.urn] });
        new StackView([vm, role, zone, category]);
        expect(vm.facts.text("citrixRole")).toEqual({ state: "ok", value: "deliveryController", where: 'perfguard:citrixRole in vSphere tag "role"' });
        expect(vm.facts.text("citrixZone")).toEqual({ state: "ok", value: "emea", where: 'perfguard:citrixZone in vSphere tag "zone" (category perfguard)' });
        expect(vm.facts.hidden).toBe(0);
    });
    it("state: tags joined by id", () => {
        const category = view(CATEGORY, "pg", { id: "urn:vmomi:InventoryServiceCategory:c1", name: "PerfGuard" });
        const throttle = view(TAG, "throttle", {
            id: "urn:vmomi:InventoryServiceTag:t1",
            name: "throttleMaxConcurrentTransactions=12",
            categoryId: "urn:vmomi:InventoryServiceCategory:c1",
        });
        const other = view(TAG, "env", { id: "urn:vmomi:InventoryServiceTag:t2", name: "env=prod", categoryId: "urn:vmomi:InventoryServiceCategory:c9" });
        const vm = view(VSPHERE_VM, "ddc-1", { tags: ["urn:vmomi:InventoryServiceTag:t1", "urn:vmomi:InventoryServiceTag:t2"] });
        new StackView([throttle, vm, other, category]);
        expect(vm.facts.number("throttleMaxConcurrentTransactions")).toMatchObject({ state: "ok", value: 12 });
        expect(vm.facts.problems).toEqual([]);
        expect(vm.facts.hidden).toBe(0);
    });
    it("a tag outside the stack, or a tag whose name is unknown, hides only itself", () => {
        const role = view(TAG, "role", { name: UNKNOWN_VALUE });
        const vm = view(
            VSPHERE_VM,
            "ddc-1",
            { tags: ["urn:vmomi:InventoryServiceTag:elsewhere", UNKNOWN_VALUE], extraConfig: { "guestinfo.perfguard.citrixZone": "emea" } },
            { tags: [role.urn] },
        );
        new StackView([vm, role]);
        expect(vm.facts.hidden).toBe(2);
        expect(vm.facts.text("citrixRole").state).toBe("absent");
        expect(vm.facts.text("citrixZone").state).toBe("ok");
    });
    it("a bad value on a tag is a value problem of the VM", () => {
        const tag = view(TAG, "t", { name: "perfguard:throttleMaxConcurrentTransactions=lots" });
        const vm = view(VSPHERE_VM, "ddc-1", { tags: [UNKNOWN_VALUE] }, { tags: [tag.urn] });
        new StackView([vm, tag]);
        expect(vm.facts.problems.map((p) => [p.kind, p.basis[0]])).toEqual([["value", 'perfguard:throttleMaxConcurrentTransactions in vSphere tag "t"']]);
    });
    it("in Analyze (no stack) a VM sees only tag ids: no facts, nothing hidden", () => {
        const vm = view(VSPHERE_VM, "ddc-1", { tags: ["urn:vmomi:InventoryServiceTag:t1"] });
        expect(vm.facts.any).toBe(false);
    });
});

describe("fact keys are typed", () => {
    it("a misspelt key, or a key of another kind, does not compile", () => {
        const facts = readFacts({ tags: { "perfguard:rttMs": "160" } });
        // @ts-expect-error "rtMs" is not a fact key
        expect(facts.number("rtMs").state).toBe("absent");
        // @ts-expect-error citrixRole is an enum fact, not a number
        expect(facts.number("citrixRole").state).toBe("absent");
        // @ts-expect-error rttMs is a number fact, not a text
        expect(facts.text("rttMs").state).toBe("ok");
        const role: FactRead<"deliveryController"> = facts.enum("citrixRole");
        expect(role.state).toBe("absent");
    });
});

describe("numVs", () => {
    it.each([
        [12.03, 12, "12.03"],
        [12.4, 12, "12.4"],
        [11.99, 12, "11.99"],
        [12, 12, "12"],
    ])("%s against %s prints %s", (value, threshold, shown) => {
        expect(numVs(value, threshold)).toBe(shown);
    });
});

describe("invalid fact values are quoted only when they look like a mistyped figure or word", () => {
    // Facts reach the pack unwrapped even when the program made them secrets: a password-like
    // value must never be echoed; "160ms" helps and is shown.
    const cases: Array<[string, string, string, string]> = [
        ["a number with a unit", "rttMs", "160ms", 'perfguard:rttMs has "160ms"'],
        ["a number with a separator", "users", "1,000", 'perfguard:users has "1,000"'],
        ["a number with a unit and a space", "networkMBps", "60 MB/s", 'perfguard:networkMBps has "60 MB/s"'],
        ["a secret-looking token on a numeric fact", "users", "hunter2-abcdefgh", "perfguard:users has a value of 16 characters"],
        ["a word on a numeric fact", "users", "lots", "perfguard:users has a value of 4 characters"],
        [
            "a near miss of an enum word: never quoted (a secret can be one), the suggestion names the word",
            "sslKeyType",
            "rsaa",
            "perfguard:sslKeyType has a value of 4 characters, not one of ecc, rsa (did you mean rsa?)",
        ],
        ["a token far from every enum word", "sslKeyType", "s3cr3t-pass", "perfguard:sslKeyType has a value of 11 characters"],
    ];
    it.each(cases)("%s", (_name, key, value, expected) => {
        const facts = readFacts({ tags: { [`perfguard:${key}`]: value } });
        expect(facts.problems.map((p) => p.problem)[0]).toContain(expected);
        if (!expected.includes('"')) {
            expect(JSON.stringify(facts.problems)).not.toContain(value);
        }
    });
});
