// PERFGUARD_RESULTS's value and the proto levels (policies/pack/results/packResults.ts).
import * as path from "path";
import { describe, expect, it } from "vitest";
import { levelOfProto, parseResultsTarget } from "../../policies/pack/results/packResults";

describe("parseResultsTarget", () => {
    it.each([
        ["out/r.json", { file: path.join("/start", "out", "r.json"), format: "json" }],
        ["r.sarif", { file: path.join("/start", "r.sarif"), format: "sarif" }],
        ["r.out,sarif", { file: path.join("/start", "r.out"), format: "sarif" }],
        ["r.sarif,json", { file: path.join("/start", "r.sarif"), format: "json" }],
        ["/abs/r.json", { file: "/abs/r.json", format: "json" }],
        [
            "r.xml,junit",
            {
                file: path.join("/start", "r.xml"),
                format: "json",
                warning: 'PERFGUARD_RESULTS: format "junit" is not json or sarif; writing JSON to /start/r.xml',
            },
        ],
    ])("%s resolves against the CLI's start folder", (value, expected) => {
        expect(parseResultsTarget(value, "/start")).toEqual(expected);
    });
});

describe("levelOfProto", () => {
    it.each([
        [0, "advisory"],
        [1, "mandatory"],
        [2, "disabled"],
        [3, "mandatory"],
        [9, "advisory"],
    ])("%i is %s", (value, level) => {
        expect(levelOfProto(value)).toBe(level);
    });
});
