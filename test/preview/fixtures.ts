// Paths of the preview fixtures, shared by the preview tests.
import * as path from "path";

export const FIXTURES = path.resolve(__dirname, "..", "fixtures");
export const SAMPLE_PROGRAM = path.join(FIXTURES, "programs", "sample");
export const THROWING_PROGRAM = path.join(FIXTURES, "programs", "throws");
export const SAMPLE_PACK = path.join(FIXTURES, "packs", "sample-pack");
export const NOISY_PACK = path.join(FIXTURES, "packs", "noisy-pack");
export const CRASHING_PACK = path.join(FIXTURES, "packs", "crashing-pack");

/** Discards program and pack logs so test output stays readable. */
export const quiet = (): void => undefined;
export const XEN_PROGRAM = path.join(FIXTURES, "programs", "xen");

/** A program directory under test/fixtures/programs. */
export const program = (name: string): string => path.join(FIXTURES, "programs", name);
