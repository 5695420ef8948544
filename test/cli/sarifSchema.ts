/**
 * The SARIF 2.1.0 JSON Schema validator for tests. The schema (draft-04) is vendored from the
 * OASIS SARIF TC's repository, github.com/oasis-tcs/sarif-spec, sarif-2.1/schema/sarif-schema-2.1.0.json
 * (commit e0583813964ec43cea53b6b531b402866095ed1f); ajv-draft-04 reads draft-04.
 */
import * as fs from "fs";
import * as path from "path";
import Ajv from "ajv-draft-04";

const schema = JSON.parse(fs.readFileSync(path.join(__dirname, "sarif", "sarif-schema-2.1.0.json"), "utf8")) as object;
const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile(schema);

/** The schema's errors for `doc` ("" when valid). */
export function sarifErrors(doc: unknown): string {
    return validate(doc) ? "" : ajv.errorsText(validate.errors, { separator: "\n" });
}
