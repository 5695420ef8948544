// The program runner with a real provider SDK (@vates/pulumi-xenorchestra) under preview mocks.
import { describe, expect, it } from "vitest";
import { runProgram } from "../../preview/forkProgram";
import { UNKNOWN_STRING } from "../../preview/types";
import { quiet, XEN_PROGRAM } from "./fixtures";

describe("runProgram", () => {
    it("records the root stack first, engine URNs, unknown ids and the property dependencies that join them", async () => {
        const resources = await runProgram(XEN_PROGRAM, { project: "xen", stack: "ci", config: {}, onOutput: quiet });
        expect(resources.map((r) => r.type)).toEqual(["pulumi:pulumi:Stack", "xenorchestra:index/xoaNetwork:XoaNetwork", "xenorchestra:index/vm:Vm"]);
        const [stack, lan, vm] = resources;
        expect(stack).toMatchObject({ urn: "urn:pulumi:ci::xen::pulumi:pulumi:Stack::xen-ci", parent: "", custom: false });
        expect(lan.urn).toBe("urn:pulumi:ci::xen::xenorchestra:index/xoaNetwork:XoaNetwork::lan");
        expect(vm.parent).toBe(stack.urn);
        expect(vm.inputs.cpus).toBe(4);
        expect(vm.inputs.networks).toEqual([{ networkId: UNKNOWN_STRING }]);
        expect(vm.propertyDependencies.networks).toEqual([lan.urn]);
        expect(vm.dependencies).toEqual([lan.urn]);
    });
});
