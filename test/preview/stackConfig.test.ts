// The stack config a program gets (issue 33): the emulation reads Pulumi.yaml's `config:` defaults
// and Pulumi.<stack>.yaml over them, as the CLI gives them; preview:real carries the stack file into
// its staged stack. What neither can reproduce (secrets, an ESC environment) is named, never dropped silently.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { readStackConfig, stackConfigNotReproduced } from "../../preview/projectFiles";
import { carryStackConfig } from "../../scripts/realCli/stackConfig";

function project(files: Record<string, string>): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-stack-config-"));
    for (const [file, text] of Object.entries(files)) {
        fs.writeFileSync(path.join(dir, file), text);
    }
    return dir;
}

const PROJECT = "name: site\nruntime: nodejs\n";
const SECURE = "  site:dbPassword:\n    secure: AAABAHb2y1Y0c2Vj\n";

describe("readStackConfig: the emulation's config is the CLI's", () => {
    const cases: Array<[string, Record<string, string>, Record<string, string>]> = [
        ["no stack file: nothing", { "Pulumi.yaml": PROJECT }, {}],
        ["the stack file's value", { "Pulumi.yaml": PROJECT, "Pulumi.prod.yaml": "config:\n  site:latamRttMs: 280\n" }, { "site:latamRttMs": "280" }],
        [
            "a bare key gets the project's namespace",
            { "Pulumi.yaml": PROJECT, "Pulumi.prod.yaml": "config:\n  latamRttMs: 280\n" },
            { "site:latamRttMs": "280" },
        ],
        [
            "a project default (object form)",
            { "Pulumi.yaml": `${PROJECT}config:\n  latamRttMs:\n    type: integer\n    default: 160\n` },
            { "site:latamRttMs": "160" },
        ],
        ["a project default (bare value)", { "Pulumi.yaml": `${PROJECT}config:\n  latamRttMs: 160\n` }, { "site:latamRttMs": "160" }],
        ["another namespace's project value", { "Pulumi.yaml": `${PROJECT}config:\n  citrix:region:\n    value: eu\n` }, { "citrix:region": "eu" }],
        ["a type alone gives nothing", { "Pulumi.yaml": `${PROJECT}config:\n  latamRttMs:\n    type: integer\n` }, {}],
        [
            "the stack file wins over the project default",
            {
                "Pulumi.yaml": `${PROJECT}config:\n  latamRttMs:\n    default: 160\n`,
                "Pulumi.prod.yaml": "config:\n  site:latamRttMs: 280\n",
            },
            { "site:latamRttMs": "280" },
        ],
        [
            "a secret is left out (named by stackConfigNotReproduced)",
            { "Pulumi.yaml": PROJECT, "Pulumi.prod.yaml": `config:\n${SECURE}  site:latamRttMs: 280\n` },
            { "site:latamRttMs": "280" },
        ],
    ];
    it.each(cases)("%s", (_, files, expected) => {
        expect(readStackConfig(project(files), "site", "prod")).toEqual(expected);
    });

    it("names the secrets and the ESC environment it cannot give the program", () => {
        expect(stackConfigNotReproduced(project({ "Pulumi.yaml": PROJECT, "Pulumi.prod.yaml": "config:\n  site:latamRttMs: 280\n" }), "prod")).toEqual([]);
        const features = stackConfigNotReproduced(
            project({ "Pulumi.yaml": PROJECT, "Pulumi.prod.yaml": `environment:\n  - site-env\nconfig:\n${SECURE}` }),
            "prod",
        );
        expect(features).toHaveLength(2);
        expect(features[0]).toMatch(/^the secret config site:dbPassword of Pulumi\.prod\.yaml /);
        expect(features[1]).toBe("the ESC environment of Pulumi.prod.yaml (environment:)");
    });
});

describe("carryStackConfig: preview:real's staged stack gets the program's stack file", () => {
    function carry(stackFile: string | undefined, env: NodeJS.ProcessEnv = {}) {
        const source = project({ "Pulumi.yaml": PROJECT, ...(stackFile === undefined ? {} : { "Pulumi.prod.yaml": stackFile }) });
        const staged = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-staged-"));
        const carried = carryStackConfig(source, staged, "prod", env);
        const file = path.join(staged, "Pulumi.prod.yaml");
        return { carried, text: fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined };
    }

    it("no stack file: nothing carried, nothing named", () => {
        expect(carry(undefined)).toEqual({ carried: { usesUserPassphrase: false, notReproduced: [] }, text: undefined });
    });

    it("plain config is copied as written; the salt is dropped (the scratch stack has its own passphrase)", () => {
        const { carried, text } = carry("encryptionsalt: v1:abc:def\nconfig:\n  site:latamRttMs: 280 # measured\n");
        expect(carried.notReproduced).toEqual([]);
        expect(carried.usesUserPassphrase).toBe(false);
        expect(text).toBe("config:\n  site:latamRttMs: 280 # measured\n");
    });

    it("passphrase secrets are carried with their salt when the user gives the passphrase", () => {
        const stackFile = `encryptionsalt: v1:abc:def\nconfig:\n${SECURE}  site:latamRttMs: 280\n`;
        for (const env of [{ PULUMI_CONFIG_PASSPHRASE: "theirs" }, { PULUMI_CONFIG_PASSPHRASE_FILE: "/run/passphrase" }]) {
            const { carried, text } = carry(stackFile, env);
            expect(carried).toMatchObject({ usesUserPassphrase: true, notReproduced: [] });
            expect(text).toBe(stackFile);
        }
    });

    it("passphrase secrets without a passphrase are left out and named", () => {
        const { carried, text } = carry(`encryptionsalt: v1:abc:def\nconfig:\n${SECURE}  site:latamRttMs: 280\n`);
        expect(carried.notReproduced).toEqual([
            "the secret config site:dbPassword of Pulumi.prod.yaml, encrypted with a passphrase, and neither PULUMI_CONFIG_PASSPHRASE nor PULUMI_CONFIG_PASSPHRASE_FILE is set: left out",
        ]);
        expect(text).not.toContain("secure");
        expect(text).not.toContain("encryptionsalt");
        expect(text).toContain("site:latamRttMs: 280");
    });

    it("another secrets provider's secrets are left out and named, whatever passphrase is given", () => {
        const { carried, text } = carry(`secretsprovider: awskms://alias/site\nencryptedkey: AQICAHg\nconfig:\n${SECURE}  site:latamRttMs: 280\n`, {
            PULUMI_CONFIG_PASSPHRASE: "theirs",
        });
        expect(carried.notReproduced).toEqual([
            "the secret config site:dbPassword of Pulumi.prod.yaml, encrypted by the secrets provider awskms://alias/site, which preview:real cannot open offline: left out",
        ]);
        expect(text).not.toMatch(/secure|awskms|encryptedkey/);
        expect(text).toContain("site:latamRttMs: 280");
    });

    it("an ESC environment is left out and named", () => {
        const { carried, text } = carry("environment:\n  - site-env\nconfig:\n  site:latamRttMs: 280\n");
        expect(carried.notReproduced).toEqual(["the ESC environment of Pulumi.prod.yaml (environment:), which preview:real cannot open offline: left out"]);
        expect(text).not.toContain("environment");
        expect(text).toContain("site:latamRttMs: 280");
    });
});
