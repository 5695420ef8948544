// The --record file never holds a secret's plaintext unless --show-secrets asks for it: a record is
// a CI artifact, and the program's secrets reach the preview as plain text.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { readStackExport } from "../../cli/stackExport";
import { toStackExport } from "../../preview/recordExport";
import { runPreview } from "../../preview/runPreview";
import { RecordedResource } from "../../preview/types";
import { REDACTED_CIPHERTEXT } from "../../preview/wireValues";
import { program, quiet } from "./fixtures";

const SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";

function zone(inputs: RecordedResource["inputs"]): RecordedResource {
    return {
        urn: "urn:pulumi:dev::p::citrix:index/zone:Zone::z",
        type: "citrix:index/zone:Zone",
        name: "z",
        custom: true,
        parent: "",
        inputs,
        outputs: inputs,
        dependencies: [],
        propertyDependencies: {},
        options: { protect: false, additionalSecretOutputs: [], aliases: [], ignoreChanges: [], customTimeouts: { create: 0, update: 0, delete: 0, read: 0 } },
    };
}

describe("toStackExport writes secrets redacted unless showSecrets", () => {
    const secretValue = { [SIG]: SECRET, value: "hunter2" };
    const cases: Array<{ name: string; inputs: RecordedResource["inputs"]; showSecrets: boolean; expected: unknown }> = [
        { name: "no secret: unchanged", inputs: { name: "far" }, showSecrets: false, expected: { name: "far" } },
        {
            name: "a top-level secret: redacted",
            inputs: { password: secretValue },
            showSecrets: false,
            expected: { password: { [SIG]: SECRET, ciphertext: REDACTED_CIPHERTEXT } },
        },
        {
            name: "a nested secret in a list: redacted",
            inputs: { metadatas: [{ name: "k", value: secretValue }] },
            showSecrets: false,
            expected: { metadatas: [{ name: "k", value: { [SIG]: SECRET, ciphertext: REDACTED_CIPHERTEXT } }] },
        },
        {
            name: "--show-secrets: plaintext as stack export --show-secrets",
            inputs: { password: secretValue },
            showSecrets: true,
            expected: { password: { [SIG]: SECRET, plaintext: JSON.stringify("hunter2") } },
        },
    ];
    it.each(cases)("$name", ({ inputs, showSecrets, expected }) => {
        const exported = toStackExport([zone(inputs)], "v3.0.0", new Date(0), showSecrets);
        expect(exported.deployment.resources[0].inputs).toEqual(expected);
        expect(exported.deployment.resources[0].outputs).toEqual(expected);
        expect(JSON.stringify(exported).includes("hunter2")).toBe(showSecrets);
    });
});

describe("preview --record on a program with secret facts (test/fixtures/programs/secret-facts)", () => {
    it("redacts them by default; check reads the record's facts as encrypted, --show-secrets keeps them", async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-record-secrets-"));
        try {
            const redacted = path.join(dir, "redacted.json");
            const shown = path.join(dir, "shown.json");
            const first = await runPreview({ programDir: program("secret-facts"), record: redacted, onLog: quiet });
            await runPreview({ programDir: program("secret-facts"), record: shown, showSecrets: true, onLog: quiet });
            // The preview itself decrypts the facts: the 300 ms zone is blocked.
            expect(first.violations.map((v) => v.policyName)).toContain("citrix-zone-rtt-limit");
            const redactedText = fs.readFileSync(redacted, "utf8");
            expect(redactedText).not.toContain("perfguard:rttMs");
            expect(redactedText).toContain(REDACTED_CIPHERTEXT);
            expect(fs.readFileSync(shown, "utf8")).toContain("perfguard:rttMs");
            // Read back, the redacted facts are "[secret]": not known, so judged "not checked", never a pass.
            expect(readStackExport(redacted).redactedSecrets).toBe(2); // its inputs and its outputs
            expect(readStackExport(redacted).recordRedactedSecrets).toBe(2);
            expect(readStackExport(redacted).encryptedFacts).toEqual(["far-zone"]);
            expect(readStackExport(shown).redactedSecrets).toBe(0);
            expect(readStackExport(shown).encryptedFacts).toEqual([]);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });
});
