/**
 * The TypeScript side of Pulumi's Node.js language host, as the emulated preview reproduces it:
 * ts-node registered as the host registers it (type-checking unless told not to), and the type
 * errors it throws read back as diagnostics for the stand-in SDK hint (sdkResolution.ts).
 */
import { TypeDiagnostic, typeCheckPaths } from "./sdkResolution";

/**
 * Registers ts-node the way Pulumi's Node.js host does (@pulumi/pulumi cmd/run/run.js), unless
 * already registered: it TYPE-CHECKS the program, as the host does by default, so a type error
 * fails the emulated preview as it fails the real one. Like the host, PULUMI_NODEJS_TRANSPILE_ONLY
 * ("true"/"false") decides when set, else the tsconfig's `noCheck`. The program's own tsconfig.json
 * is used when there is one; imports resolve for the type check as they do at run time
 * (sdkResolution.ts typeCheckPaths).
 */
export function registerTypeScript(programDir: string): void {
    const marker = Symbol.for("ts-node.register.instance");
    if ((process as unknown as Record<symbol, unknown>)[marker]) {
        return;
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const tsnode = require("ts-node") as typeof import("ts-node");
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fs = require("fs") as typeof import("fs");
    const hasTsconfig = fs.existsSync("tsconfig.json");
    const env = process.env["PULUMI_NODEJS_TRANSPILE_ONLY"];
    const transpileOnly = env ? env === "true" : hasTsconfig && tsconfigNoCheck("tsconfig.json");
    tsnode.register({
        transpileOnly,
        skipProject: !hasTsconfig,
        compilerOptions: {
            ...(hasTsconfig ? {} : { target: "ES2020", module: "commonjs", moduleResolution: "node", esModuleInterop: true }),
            ...(transpileOnly ? {} : { paths: typeCheckPaths(programDir) }),
        },
    });
}

/** The `noCheck` compiler option of a tsconfig (false when unreadable: the host type-checks then). */
function tsconfigNoCheck(file: string): boolean {
    try {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const ts = require("typescript") as typeof import("typescript");
        const read = ts.readConfigFile(file, ts.sys.readFile);
        const config = read.config as { compilerOptions?: { noCheck?: unknown } } | undefined;
        return config?.compilerOptions?.noCheck === true;
    } catch {
        return false;
    }
}

/** A TypeScript diagnostic message (a string or a chain of them), one text. */
interface MessageChain {
    readonly messageText: string;
    readonly next?: readonly MessageChain[];
}

function flattenMessage(text: string | MessageChain): string {
    return typeof text === "string" ? text : [text.messageText, ...(text.next ?? []).map(flattenMessage)].join("\n");
}

/** The diagnostics of ts-node's TSError (ts.Diagnostic objects), as the stand-in hint reads them. */
export function typeDiagnostics(err: Error): TypeDiagnostic[] {
    type Diagnostic = { file?: { fileName: string }; messageText: string | MessageChain; relatedInformation?: readonly { file?: { fileName: string } }[] };
    const diagnostics = (err as { diagnostics?: readonly Diagnostic[] }).diagnostics;
    if (!Array.isArray(diagnostics)) {
        return [{ text: err.message }];
    }
    return diagnostics.map((d: Diagnostic) => ({
        file: d.file?.fileName,
        text: flattenMessage(d.messageText),
        related: (d.relatedInformation ?? []).flatMap((r) => (r.file ? [r.file.fileName] : [])),
    }));
}
