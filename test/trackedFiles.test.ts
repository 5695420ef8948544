/**
 * The repository tracks no symbolic link: a link committed from a developer's checkout (a worktree's
 * `.cache` pointing at the main checkout's real-CLI cache) reaches every clone, where it points
 * nowhere or back at itself, and `npm run real-cli:setup` then fails on a clean clone in CI. A
 * merge of such a link also replaces the ignored `.cache` directory of the checkout it lands in.
 */
import { execFileSync } from "child_process";
import * as path from "path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");

describe("tracked files", () => {
    it("no tracked file is a symbolic link (git mode 120000)", () => {
        let listing: string;
        try {
            listing = execFileSync("git", ["ls-files", "-s"], { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
        } catch {
            return; // not a git checkout (an extracted package): nothing is tracked
        }
        const links = listing
            .split("\n")
            .filter((line) => line.startsWith("120000 "))
            .map((line) => line.split("\t")[1]);
        expect(links).toEqual([]);
    });
});
