/**
 * nsx-alb-se-capacity-advisory's message for a VS whose SSL TPS fit rests on the favourable
 * reading of its certificate keys (certificates.ts): a key the source did not measure (RSA above
 * 2048 bits, an EC curve other than P-256: judged on the row of its kind), or a VS with both an RSA
 * and an EC certificate (judged on ECC; on RSA-2048 it would not fit). Only what the data support
 * may gate, so these are advisories; the figures are the evaluation's.
 */
import { listLabels, pct } from "../pack/format";
import { Message, PROBLEM_LINE_MAX } from "../pack/message";
import { demandText, labelOf } from "./capacityMessages";
import { SeCapacityConfig } from "./config";
import { within } from "./fit";
import { GroupEvaluation, Unit } from "./groupTypes";

const MEASURED_KEYS = "the per-SE table measured SSL TPS with RSA-2048 and EC P-256 (secp256r1) keys only";

/**
 * The advisory for one unit whose fit rests on the favourable key reading, or undefined when it
 * does not (no such key, no SSL TPS, or it does not fit even so: nsx-alb-se-capacity reports that).
 */
export function keyReadingMessage(unit: Unit, e: GroupEvaluation, config: SeCapacityConfig): Message | undefined {
    const p = e.placement;
    if (!p || unit.idle || unit.ambiguous) {
        return undefined;
    }
    const i = unit.index;
    const peak = p.perVs[i].peak;
    const ssl = unit.demands.filter((d) => d.sslTps !== undefined && d.sslKeyBasis?.source === "certificate");
    if (ssl.length === 0 || !within(peak, config)) {
        return undefined;
    }
    const unmeasured = [...new Set(ssl.flatMap((d) => d.sslKeyBasis?.unmeasured ?? []))].sort();
    const either = ssl.some((d) => d.sslKeyBasis?.conservative !== undefined);
    const onRsa = either && e.keyConservative ? e.keyConservative.perVs[i].peak : undefined;
    const rsaOver = onRsa !== undefined && !within(onRsa, config);
    if (unmeasured.length === 0 && !rsaOver) {
        return undefined;
    }
    const label = labelOf(unit.head.vs);
    const limit = `limit ${pct(1 - config.headroomPct / 100)}`;
    const problem = rsaOver
        ? `${label} fits (${pct(peak)} on the ECC row) only if clients take its EC key: with its RSA key it needs ${pct(onRsa)} (${limit}).`
        : `${label}: its ${listLabels(unmeasured)} key needs more than the ${pct(peak)} judged on the measured row of its kind (${limit}); how much more was not measured.`;
    const short = rsaOver
        ? `${label} fits only if clients take its EC key: ${pct(onRsa)} on RSA-2048 (${limit}).`
        : `${label}: key ${listLabels(unmeasured)} needs more than ${pct(peak)} (not measured).`;
    return {
        problem: problem.length <= PROBLEM_LINE_MAX ? problem : short,
        fix: rsaOver
            ? "present only the EC certificate on this VS, or size the SE group for RSA-2048 handshakes (the fix nsx-alb-se-capacity would give on that row)."
            : "use an RSA-2048 or EC P-256 key (measured), or measure this key on the SE size and keep the headroom.",
        basis: [
            demandText(unit),
            `${MEASURED_KEYS}; ${
                rsaOver
                    ? "a VS with both presents the one each client negotiates: ECC is the favourable reading, RSA-2048 the conservative one"
                    : "a longer key or a larger curve costs more per handshake, so the measured row of its kind is the favourable reading"
            }: advisory`,
        ],
    };
}
