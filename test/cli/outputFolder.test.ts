/**
 * makeFolder: the one folder-creating helper of `check --report`, `size --plot` and `diff --plot`
 * (mkdir -p). It creates what is missing and, where it cannot, says why at once: on Node 20,
 * fs.mkdirSync(..., { recursive: true }) never returns for /proc/x (the spin issue #22 found).
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { makeFolder } from "../../cli/outputFolder";
import { tempDir } from "./cliHarness";

const dir = tempDir();
fs.writeFileSync(path.join(dir, "a-file"), "not a folder\n");
const readOnly = path.join(dir, "read-only");
fs.mkdirSync(readOnly, { mode: 0o555 });
// Root writes anywhere: the not-writable case holds only for another user.
const asRoot = process.getuid?.() === 0;

describe("makeFolder", () => {
    it.each([
        ["an existing folder (baseline)", "."],
        ["one level missing", "one"],
        ["two levels missing", path.join("two", "levels")],
        ["a trailing slash", "slash/"],
    ])("%s: made, no reason", (_label, rel) => {
        const target = path.join(dir, rel);
        expect(makeFolder(target)).toBeUndefined();
        expect(fs.statSync(target).isDirectory()).toBe(true);
    });

    it.each([
        ["a file in the way", path.join(dir, "a-file", "x"), `${path.join(dir, "a-file")} is a file, not a folder`],
        ["a file in the way, deeper", path.join(dir, "a-file", "x", "y"), `${path.join(dir, "a-file")} is a file, not a folder`],
        ["the target is a file", path.join(dir, "a-file"), `${path.join(dir, "a-file")} is a file, not a folder`],
        ...(fs.existsSync("/proc/self")
            ? [
                  ["under /proc (recursive mkdir spins there)", "/proc/x", "ENOENT: mkdir /proc/x"],
                  ["three levels under /proc", "/proc/x/y/z", "ENOENT: mkdir /proc/x"],
              ]
            : []),
        ...(asRoot ? [] : [["a folder without write permission", path.join(readOnly, "sub"), `EACCES: mkdir ${path.join(readOnly, "sub")}`]]),
    ])("%s: the reason, at once", (_label, target, why) => {
        expect(makeFolder(target)).toBe(why);
    });

    it.runIf(!asRoot)("an existing folder without write permission: not writable", () => {
        expect(makeFolder(readOnly)).toBe(`${readOnly} is not writable`);
    });
});
