/**
 * Installs the stand-in provider plugins into a Pulumi plugin cache, so the real CLI uses them
 * with no download attempt and no "using ... from $PATH" warning.
 *
 * How the CLI (v3.274.1, checked) finds a plugin for package `citrix`:
 * - Ambient: an executable `pulumi-resource-citrix` on PATH is used whatever version the program
 *   asks for, and the CLI prints `warning: using pulumi-resource-citrix from $PATH at <path>` in
 *   the diagnostics of every preview. PULUMI_IGNORE_AMBIENT_PLUGINS=true turns this off.
 * - Plugin cache: `$PULUMI_HOME/plugins/resource-<pkg>-v<version>/pulumi-resource-<pkg>`. A
 *   program that names no version (perfguard's example classes) gets the newest installed one.
 *   A program that names one must find exactly that version: the xen example uses
 *   @vates/pulumi-xenorchestra 2.4.0, whose resources ask for xenorchestra v2.4.0 (and, since
 *   the package is in node_modules, every program here requires it); with only v2.5.0 installed
 *   the CLI fails with "no resource plugin 'pulumi-resource-xenorchestra' found in the workspace
 *   at version v2.4.0" (it would try to download it without
 *   PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true).
 * So each package is installed at the version its GetPluginInfo reports (schema data `version`:
 * 2.4.0 for xenorchestra, 0.0.1 for the others), as a symlink to bin/pulumi-resource-<pkg>.
 *
 * argv (when run): <PULUMI_HOME>. Prints the plugin folders it made.
 */
import * as fs from "fs";
import * as path from "path";
import { PACKAGES } from "./schema";

/** The version a stand-in reports, and is installed at, when its data names none. */
export const DEFAULT_PLUGIN_VERSION = "0.0.1";

export const STAND_IN_PACKAGES: readonly string[] = Object.keys(PACKAGES).sort();

export function pluginVersion(pkg: string): string {
    return PACKAGES[pkg]?.version ?? DEFAULT_PLUGIN_VERSION;
}

/** The repository root (dist/preview/providers/install.js or preview/providers/install.ts). */
export function repoRoot(): string {
    let dir = __dirname;
    while (!fs.existsSync(path.join(dir, "PulumiPolicy.yaml")) && path.dirname(dir) !== dir) {
        dir = path.dirname(dir);
    }
    return dir;
}

/** The launcher of a package's stand-in plugin. */
export function launcherOf(pkg: string, root = repoRoot()): string {
    return path.join(root, "preview", "providers", "bin", `pulumi-resource-${pkg}`);
}

/**
 * Links every stand-in into `<pulumiHome>/plugins`. Replaces links it made before.
 * @returns the plugin folders.
 */
export function installStandInPlugins(pulumiHome: string, root = repoRoot()): string[] {
    if (!fs.existsSync(path.join(root, "dist", "preview", "providers", "plugin.js"))) {
        throw new Error(`the stand-in plugins are not built: run npm run build in ${root}`);
    }
    return STAND_IN_PACKAGES.map((pkg) => {
        const dir = path.join(pulumiHome, "plugins", `resource-${pkg}-v${pluginVersion(pkg)}`);
        fs.mkdirSync(dir, { recursive: true });
        const link = path.join(dir, `pulumi-resource-${pkg}`);
        fs.rmSync(link, { force: true });
        fs.symlinkSync(launcherOf(pkg, root), link);
        return dir;
    });
}

if (require.main === module) {
    const home = process.argv[2] ?? process.env.PULUMI_HOME;
    if (!home) {
        process.stderr.write("usage: install <PULUMI_HOME>\n");
        process.exit(2);
    }
    for (const dir of installStandInPlugins(path.resolve(home))) {
        process.stdout.write(`${dir}\n`);
    }
}
