// The CLI's display rules: short type names and violation layout.
import { describe, expect, it } from "vitest";
import { displayType, formatViolation, urnName, urnType } from "../../preview/printViolations";

describe("displayType", () => {
    it("shortens module/file tokens whose file is the lower-camel type name", () => {
        expect(displayType("citrix:index/machineCatalog:MachineCatalog")).toBe("citrix:index:MachineCatalog");
        expect(displayType("avi:index/serviceenginegroup:Serviceenginegroup")).toBe("avi:index:Serviceenginegroup");
        expect(displayType("pulumi:pulumi:Stack")).toBe("pulumi:pulumi:Stack");
        expect(displayType("x:index/other:Thing")).toBe("x:index/other:Thing");
    });
});

describe("formatViolation", () => {
    it("prints the heading line, then the message lines indented", () => {
        const urn = "urn:pulumi:dev::proj::parent:index:Comp$citrix:index/zone:Zone::a::b";
        expect(urnType(urn)).toBe("citrix:index/zone:Zone");
        expect(urnName(urn)).toBe("a::b");
        const text = formatViolation({
            policyName: "p",
            policyPackName: "pack",
            policyPackVersion: "0.1.0",
            enforcementLevel: "advisory",
            message: "first\nsecond\n",
            urn,
            phase: "analyze",
        });
        expect(text).toBe("    pack@v0.1.0 [advisory]  p  (citrix:index:Zone: a::b)\n        first\n        second\n");
    });
});
