/**
 * duplicateKeys: every key a JSON text gives twice in one object, with its line and the first's,
 * as both JSON.parse and the Pulumi CLI's Go decoder keep the last value without a word.
 */
import { describe, expect, it } from "vitest";
import { duplicateKeys } from "../../cli/jsonDuplicateKeys";

describe("duplicateKeys", () => {
    it.each([
        ["no duplicate (baseline)", '{\n  "a": "mandatory",\n  "b": { "x": 1, "y": [{ "x": 2 }, { "x": 3 }] }\n}', []],
        ["a top-level key twice", '{\n  "a": "mandatory",\n  "b": 1,\n  "a": "disabled"\n}', [{ key: "a", path: [], line: 4, firstLine: 2 }]],
        [
            "three times: each later one",
            '{"a": 1,\n"a": 2,\n"a": 3}',
            [
                { key: "a", path: [], line: 2, firstLine: 1 },
                { key: "a", path: [], line: 3, firstLine: 1 },
            ],
        ],
        [
            "a setting twice inside a policy",
            '{\n  "p": {\n    "maxRttMs": 200,\n    "maxRttMs": 900\n  }\n}',
            [{ key: "maxRttMs", path: ["p"], line: 4, firstLine: 3 }],
        ],
        ["inside an array item", '{"p": {"hosts": [{"id": 1,\n "id": 2}]}}', [{ key: "id", path: ["p", "hosts", "0"], line: 2, firstLine: 1 }]],
        ["the same key in two objects is no duplicate", '{"p": {"x": 1}, "q": {"x": 1}}', []],
        ["an escaped spelling of the same key", '{"a": 1, "\\u0061": 2}', [{ key: "a", path: [], line: 1, firstLine: 1 }]],
        ["a value that looks like a key", '{"a": "\\"a\\"", "b": "a"}', []],
        ["braces and commas inside strings", '{"a": "{,}", "b": "[,\\"]", "a": 2}', [{ key: "a", path: [], line: 1, firstLine: 1 }]],
        ["CRLF line ends", '{\r\n"a": 1,\r\n"a": 2\r\n}', [{ key: "a", path: [], line: 3, firstLine: 2 }]],
        ["not an object", '[1, 2, "a", "a"]', []],
        ["empty text", "", []],
    ])("%s", (_label, text, expected) => {
        if (text !== "") {
            expect(() => JSON.parse(text)).not.toThrow();
        }
        expect(duplicateKeys(text)).toEqual(expected);
    });
});
