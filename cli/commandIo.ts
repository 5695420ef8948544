/**
 * What every perfguard command writes with: its output streams, JSON on stdout, output files'
 * folders and plots. Shared by cli/main.ts and the commands it registers (cli/sizeCommands.ts).
 */
import * as fs from "fs";
import * as path from "path";
import { ensureOutputFolder } from "./outputFolder";

export interface Io {
    out: (text: string) => void;
    err: (text: string) => void;
}

export const JSON_HELP = "print one JSON document on stdout instead of the tables";

/** Creates the folder of an output file (mkdir -p), or fails early (exit 2) saying why. */
export function checkWritable(file: string, what: string): void {
    ensureOutputFolder(path.dirname(path.resolve(file)), what, file);
}

/** Writes a plot; a missing charting library is named with the install command. */
export async function writePlot(file: string, render: () => Promise<string>): Promise<void> {
    let svg: string;
    try {
        svg = await render();
    } catch (err) {
        const message = (err as Error).message ?? String(err);
        if (/Cannot find module/.test(message)) {
            throw new Error(
                `--plot needs the charting library (optional dependency "echarts") and the plot renderer: ${message.split("\n")[0]}. Run npm install in the perfguard folder.`,
                { cause: err },
            );
        }
        throw err;
    }
    fs.writeFileSync(file, svg);
}

export function printJson(io: Io, doc: unknown): void {
    io.out(JSON.stringify(doc, null, 2) + "\n");
}

/** How a `size` command prints its sizing: the plot first (when asked), then the JSON document or the text. */
export interface SizingViews {
    plot: () => Promise<string>;
    json: () => unknown;
    text: () => string;
}

/** Writes a sizing's plot to `o.plot` (when given), then prints its JSON (`o.json`) or its text with where the plot went. */
export async function printSizing(io: Io, o: { plot?: string; json?: boolean }, views: SizingViews): Promise<void> {
    if (o.plot !== undefined) {
        await writePlot(o.plot, views.plot);
    }
    if (o.json) {
        printJson(io, views.json());
    } else {
        io.out(views.text() + (o.plot !== undefined ? `\nPlot written to ${o.plot}.\n` : ""));
    }
}
