/**
 * The perfguard policy pack: what `pulumi preview --policy-pack <this folder>` starts. Nothing
 * may print to stdout before the SDK prints the gRPC port.
 */
import * as fs from "fs";
import * as path from "path";
import { PolicyPack } from "@pulumi/policy";
import { policies } from "./policies";
import { tapConfigure } from "./policies/pack/configuredNames";
import { decodeOnce, DeserializeModule } from "./policies/pack/decodeOnce";

// PolicyPack reads the pack's version from package.json in the working directory. The CLI's
// own Node.js language host starts a pack there, but language hosts older than 2025-09 (the
// newest one the Go module proxy serves is from 2025-08) start every plugin, packs included,
// in the program's directory: move to the pack's folder so that both work.
const packRoot = fs.existsSync(path.join(__dirname, "package.json")) ? __dirname : path.dirname(__dirname);
if (process.cwd() !== packRoot && fs.existsSync(path.join(packRoot, "package.json"))) {
    process.chdir(packRoot);
}

// The SDK decodes every resource again for each policy; one decode per request is shared
// (policies/pack/decodeOnce.ts). The module is the SDK's own (server.js reads the export per call).
// eslint-disable-next-line @typescript-eslint/no-require-imports
decodeOnce(require("@pulumi/policy/deserialize") as DeserializeModule);

// The gRPC module the SDK's server uses (one copy in node_modules; resolved from the SDK so that
// the tap sits on the server the SDK creates): Configure carries config keys that name no policy,
// which the SDK hides from policies (policies/pack/configuredNames.ts).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [path.dirname(require.resolve("@pulumi/policy"))] })) as {
    Server: Parameters<typeof tapConfigure>[0];
};
const serve = (): void => {
    new PolicyPack("perfguard", { policies });
};
// PERFGUARD_RESULTS: the pack writes the verdicts it reports (policies/pack/results/packResults.ts);
// required only when set, so that a preview without it loads none of the writers.
const resultsFile = process.env.PERFGUARD_RESULTS;
tapConfigure(
    grpc.Server,
    policies.map((p) => p.name),
    resultsFile
        ? () => {
              // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: only when PERFGUARD_RESULTS is set
              const results = require("./policies/pack/results/packResults") as typeof import("./policies/pack/results/packResults");
              results.tapResults(
                  grpc.Server as unknown as Parameters<typeof results.tapResults>[0],
                  resultsFile,
                  policies.map((p) => ({ id: p.name, description: p.description })),
                  serve,
              );
          }
        : serve,
);
