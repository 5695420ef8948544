// Reading stack state as the CLI's file backend stores it, and the aliases the engine would send.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as zlib from "zlib";
import * as aliasproto from "@pulumi/pulumi/proto/alias_pb";
import { describe, expect, it } from "vitest";
import { fileBackendDir, parseStackName, readBackendStack, readExportFile, stackOutputs } from "../../preview/backendState";
import { AliasResolver } from "../../preview/resolveAliases";

const ROOT_URN = "urn:pulumi:network::net::pulumi:pulumi:Stack::net-network";
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };

function checkpoint(resources: unknown[]): string {
    return JSON.stringify({ version: 3, checkpoint: { stack: "x", latest: { manifest: {}, resources } } });
}

function backend(files: Record<string, string | Buffer>): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-backend-"));
    for (const [name, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), text);
    }
    return dir;
}

describe("parseStackName (pkg/backend/diy ParseReference)", () => {
    it.each([
        ["prod", { project: "site", stack: "prod" }],
        ["organization/prod", { project: "site", stack: "prod" }],
        ["organization/net/prod", { project: "net", stack: "prod" }],
    ])("%s", (name, expected) => {
        expect(parseStackName(name, "site")).toEqual(expected);
    });

    it.each([
        ["acme/net/prod", 'names organization "acme"'],
        ["a/b/c/d", "is not a stack name"],
        ["net//prod", "is not a stack name"],
    ])("refuses %s", (name, why) => {
        expect((parseStackName(name, "site") as { why: string }).why).toContain(why);
    });
});

describe("fileBackendDir", () => {
    it("takes PULUMI_BACKEND_URL, else pulumi login's current backend, and says why not otherwise", () => {
        expect(fileBackendDir({ PULUMI_BACKEND_URL: "file:///srv/state?no_tmp_dir=true" })).toEqual({ dir: "/srv/state" });
        const home = backend({ "credentials.json": JSON.stringify({ current: "file:///srv/login" }) });
        expect(fileBackendDir({ PULUMI_HOME: home })).toEqual({ dir: "/srv/login" });
        expect(fileBackendDir({ PULUMI_BACKEND_URL: "https://api.pulumi.com" })).toEqual({
            why: "the backend https://api.pulumi.com is not a file:// backend",
        });
        expect(fileBackendDir({ PULUMI_HOME: backend({}) })).toEqual({ why: "no backend is set (PULUMI_BACKEND_URL or pulumi login)" });
    });
});

describe("readBackendStack", () => {
    const resources = [{ urn: ROOT_URN, type: "pulumi:pulumi:Stack", outputs: { rtt: 280 } }];

    it.each([
        ["the project layout", ".pulumi/stacks/net/network.json", checkpoint(resources)],
        ["the legacy layout", ".pulumi/stacks/network.json", checkpoint(resources)],
        ["a gzipped checkpoint", ".pulumi/stacks/net/network.json.gz", zlib.gzipSync(checkpoint(resources))],
    ])("finds %s", (_label, file, text) => {
        const state = readBackendStack("net", "network", { PULUMI_BACKEND_URL: `file://${backend({ [file]: text })}` });
        expect(state).toMatchObject({ kind: "found", resources: [{ urn: ROOT_URN, outputs: { rtt: 280 } }] });
    });

    it("tells a stack never deployed from one it cannot read", () => {
        expect(readBackendStack("net", "network", { PULUMI_BACKEND_URL: `file://${backend({})}` }).kind).toBe("absent");
        const broken = backend({ ".pulumi/stacks/net/network.json": "{" });
        expect(readBackendStack("net", "network", { PULUMI_BACKEND_URL: `file://${broken}` }).kind).toBe("unreadable");
        expect(readBackendStack("net", "network", { PULUMI_BACKEND_URL: "https://api.pulumi.com" }).kind).toBe("unreadable");
    });

    it("reads a pulumi stack export, and names a missing one", () => {
        const dir = backend({ "export.json": JSON.stringify({ version: 3, deployment: { resources } }) });
        expect(readExportFile(path.join(dir, "export.json"))).toMatchObject({ kind: "found" });
        expect(readExportFile(path.join(dir, "none.json"))).toEqual({ kind: "unreadable", why: `${path.join(dir, "none.json")}: no such file` });
    });
});

describe("stackOutputs", () => {
    it("gives plain outputs, decrypted secrets' values with their names, and names ciphertext it cannot read", () => {
        const out = stackOutputs([
            {
                urn: ROOT_URN,
                type: "pulumi:pulumi:Stack",
                outputs: { rtt: 280, shown: { ...SECRET, plaintext: "40" }, hidden: { ...SECRET, ciphertext: "v1:abc" } },
            },
        ]);
        expect(out).toEqual({ outputs: { rtt: 280, shown: 40 }, secretNames: ["hidden", "shown"], encrypted: ["hidden"] });
    });
});

describe("AliasResolver (step_generator getOldResource)", () => {
    const ZONE = "citrix:index/zone:Zone";
    const STACK = "urn:pulumi:dev::site::pulumi:pulumi:Stack::site-dev";
    const urn = (name: string) => `urn:pulumi:dev::site::${ZONE}::${name}`;
    const byName = (name: string) => new aliasproto.Alias().setSpec(new aliasproto.Alias.Spec().setName(name));

    it.each([
        ["a fresh stack: none", [], urn("new"), [byName("old")], []],
        ["the old name in the state", [urn("old")], urn("new"), [byName("old")], [urn("old")]],
        ["the resource's own URN in the state: none", [urn("new"), urn("old")], urn("new"), [byName("old")], []],
        ["an alias URN", [urn("old")], urn("new"), [new aliasproto.Alias().setUrn(urn("old"))], [urn("old")]],
        ["an alias not in the state", [urn("other")], urn("new"), [byName("old")], []],
    ])("%s", (_label, olds, resourceUrn, aliases, expected) => {
        const resolver = new AliasResolver(new Set(olds), "site", "dev");
        expect(resolver.resolve(resourceUrn, "new", ZONE, STACK, aliases)).toEqual(expected);
    });

    it("gives a child of a renamed component the alias its parent's alias implies", () => {
        const COMP = "my:site:Zone";
        const oldParent = `urn:pulumi:dev::site::${COMP}::old`;
        const oldChild = `urn:pulumi:dev::site::${COMP}$${ZONE}::old-zone`;
        const resolver = new AliasResolver(new Set([oldParent, oldChild]), "site", "dev");
        const newParent = `urn:pulumi:dev::site::${COMP}::new`;
        expect(resolver.resolve(newParent, "new", COMP, STACK, [byName("old")])).toEqual([oldParent]);
        expect(resolver.resolve(`urn:pulumi:dev::site::${COMP}$${ZONE}::new-zone`, "new-zone", ZONE, newParent, [])).toEqual([oldChild]);
    });
});
