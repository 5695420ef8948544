/**
 * Preloaded (`node --require`) into a pack process when the benchmark profiles it: Node refuses
 * --cpu-prof in NODE_OPTIONS, and the CLI-faithful start-up leaves no other way to pass it. So
 * this samples with the inspector's profiler from the start, and on SIGTERM writes the profile to
 * $PERFGUARD_BENCH_CPU_PROFILE and exits. With $PERFGUARD_BENCH_HEAP_PROFILE it also runs the
 * sampling heap profiler (allocations by stack, kept or not: includeObjectsCollectedBy*GC) and
 * writes that profile there. It prints nothing: a pack's first stdout line is its port.
 */
import * as fs from "fs";
import * as inspector from "inspector";

const out = process.env.PERFGUARD_BENCH_CPU_PROFILE;
const heapOut = process.env.PERFGUARD_BENCH_HEAP_PROFILE;
if (out) {
    const session = new inspector.Session();
    session.connect();
    session.post("Profiler.enable");
    // 1 ms sampling (in µs): enough resolution for calls that take seconds.
    session.post("Profiler.setSamplingInterval", { interval: 1000 });
    session.post("Profiler.start");
    if (heapOut) {
        session.post("HeapProfiler.enable");
        // Every 32 KiB allocated on average; collected objects too, since the garbage is the cost.
        session.post("HeapProfiler.startSampling", {
            samplingInterval: 32768,
            includeObjectsCollectedByMajorGC: true,
            includeObjectsCollectedByMinorGC: true,
        } as inspector.HeapProfiler.StartSamplingParameterType);
    }
    process.on("SIGTERM", () => {
        session.post("Profiler.stop", (err, result) => {
            if (!err) {
                fs.writeFileSync(out, JSON.stringify(result.profile));
            }
            if (!heapOut) {
                process.exit(0);
            }
            session.post("HeapProfiler.stopSampling", (heapErr, heap) => {
                if (!heapErr) {
                    fs.writeFileSync(heapOut, JSON.stringify(heap.profile));
                }
                process.exit(0);
            });
        });
    });
}
