import { describe, expect, it } from "vitest";
import { packEnv } from "../../cli/diff/run";

describe("perfguard diff's pack processes: a 64 MB young generation, the user's NODE_OPTIONS kept", () => {
    it.each([
        ["no NODE_OPTIONS", undefined, "--max-semi-space-size=64"],
        ["empty", "", "--max-semi-space-size=64"],
        ["the user's options are kept first", "--enable-source-maps", "--enable-source-maps --max-semi-space-size=64"],
        ["the user's own size wins", "--max-semi-space-size=16", "--max-semi-space-size=16"],
        ["surrounding space trimmed", "  --trace-warnings  ", "--trace-warnings --max-semi-space-size=64"],
    ])("%s", (_name, base, expected) => {
        expect(packEnv(base)).toEqual({ NODE_OPTIONS: expected });
    });
});
