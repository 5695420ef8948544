/**
 * nsx-alb-se-capacity-advisory, issue 30: what rests on a favourable reading is advisory and
 * says both readings: beyond the 6 vCPU row (linear per vCPU, the 4-to-6 slope, the 6 vCPU row),
 * and a certificate key the source did not measure or a VS with both an RSA and an EC key.
 * Table-driven: a baseline that passes and one change per case.
 */
import { describe, expect, it } from "vitest";
import { pct } from "../../../policies/pack/format";
import { TestResource, UNKNOWN_VALUE } from "../../support/policyHarness";
import { ADV, cell, cert, group, levelled, on, run, vs } from "./issue30Fixtures";

const EIGHT = { vcpusPerSe: "8", memoryPerSe: "8192", diskPerSe: "40", dedicatedDispatcherCore: "true", maxSe: "2", bufferSe: "1" };
const FOUR = { vcpusPerSe: "4", memoryPerSe: "4096", diskPerSe: "30", dedicatedDispatcherCore: "true", maxSe: "2", bufferSe: "1" };
const SSL = { services: [{ port: "443", enableSsl: "true" }] };
const EC = (curve: string) => [{ algorithm: "SSL_KEY_ALGORITHM_EC", ecParams: [{ curve }] }];
const RSA = (bits: number) => [{ algorithm: "SSL_KEY_ALGORITHM_RSA", rsaParams: [{ keySize: `SSL_KEY_${bits}_BITS` }] }];

/** shop-vs on a 4 vCPU group, 6000 SSL TPS + 6000 L7 RPS, presenting the given certificates (joined in the preview). */
function shop(certs: TestResource[]): TestResource[] {
    return [
        group("web", FOUR),
        ...certs,
        vs(
            "shop-vs",
            "web-seg",
            { sslTps: "6000", l7Rps: "6000" },
            { ...SSL, sslKeyAndCertificateRefs: certs.map(() => UNKNOWN_VALUE) },
            { sslKeyAndCertificateRefs: certs.map((c) => c.name) },
        ),
    ];
}

describe("nsx-alb-se-capacity-advisory: favourable readings are said", () => {
    const cases: Array<[string, TestResource[], string[]]> = [
        [
            "baseline: an EC P-256 certificate (measured), 8 vCPUs within every reading",
            [...shop([cert("shop", EC("SSL_KEY_EC_CURVE_SECP256R1"))]), group("big-l7", EIGHT), vs("big-l7-vs", "big-l7-seg", { l7Rps: "140000" })],
            [],
        ],
        [
            "190000 L7 RPS on 8 vCPUs: over the slope, within linear per vCPU",
            [group("big-l7", EIGHT), vs("big-l7-vs", "big-l7-seg", { l7Rps: "190000" })],
            [`${ADV} -> big-l7-vs [advisory]`],
        ],
        ["an RSA-4096 key", shop([cert("shop", RSA(4096))]), []], // 6000 on the RSA-2048 row is already over: nsx-alb-se-capacity's
        [
            "an RSA-4096 key, 1000 TPS",
            [
                group("web", FOUR),
                cert("shop", RSA(4096)),
                vs(
                    "shop-vs",
                    "web-seg",
                    { sslTps: "1000" },
                    { ...SSL, sslKeyAndCertificateRefs: [UNKNOWN_VALUE] },
                    { sslKeyAndCertificateRefs: ["shop-cert"] },
                ),
            ],
            [`${ADV} -> shop-vs [advisory]`],
        ],
        ["an EC P-384 key", shop([cert("shop", EC("SSL_KEY_EC_CURVE_SECP384R1"))]), [`${ADV} -> shop-vs [advisory]`]],
        [
            "an RSA-2048 and an EC P-256 certificate",
            shop([cert("shop", EC("SSL_KEY_EC_CURVE_SECP256R1")), cert("shop-rsa", RSA(2048))]),
            [`${ADV} -> shop-vs [advisory]`],
        ],
    ];
    it.each(cases)("%s", async (_name, resources, expected) => {
        const found = levelled(await run(resources)).filter((v) => v.startsWith(ADV));
        expect(found).toEqual([...expected].sort());
    });

    it("beyond 6 vCPUs: both readings and the 6 vCPU row, in the problem line", async () => {
        const m = on(await run(cases[1][1]), "big-l7-vs", ADV);
        const linear = (cell(6, "l7Rps") * 8) / 6;
        const slope = cell(6, "l7Rps") + (cell(6, "l7Rps") - cell(4, "l7Rps"));
        expect(m.problem).toBe(
            `Virtualservice "big-l7-vs" fits 8 vCPU SEs only if extrapolated, not measured: ${pct(190000 / linear)} linear per vCPU, ` +
                `${pct(190000 / slope)} on the 4-to-6 slope, ${pct(190000 / cell(6, "l7Rps"))} of the 6 vCPU row.`,
        );
    });
    it("RSA-4096: judged on the RSA-2048 row, the favourable reading", async () => {
        const m = on(await run(cases[3][1]), "shop-vs", ADV);
        expect(m.problem).toBe(
            `Virtualservice "shop-vs": its RSA-4096 key needs more than the ${pct(1000 / cell(4, "sslTpsRsa2048"))} judged on the measured row of its kind (limit 80%); how much more was not measured.`,
        );
        expect(m.basis.join("\n")).toContain('RSA-4096 key of Sslkeyandcertificate "shop-cert"');
    });
    it("RSA and EC: ECC fits, RSA-2048 does not", async () => {
        const m = on(await run(cases[5][1]), "shop-vs", ADV);
        const onEcc = 6000 / cell(4, "sslTpsEcc") + 6000 / cell(4, "l7Rps");
        const onRsa = 6000 / cell(4, "sslTpsRsa2048") + 6000 / cell(4, "l7Rps");
        expect(m.problem).toBe(
            `Virtualservice "shop-vs" fits (${pct(onEcc)} on the ECC row) only if clients take its EC key: with its RSA key it needs ${pct(onRsa)} (limit 80%).`,
        );
        expect(m.fix).toMatch(/^present only the EC certificate/);
    });
});
