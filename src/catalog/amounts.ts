import { apiError } from "./errors";
import { PER_100_GRAMS } from "./detail";
import { type FoodDetail, GRAMS_MAX } from "./model";

/**
 * Nutrient amounts for another quantity than 100 g (design §9): `?grams=` or `?portion=<seq>` on a
 * detail, `grams` in a lookup. Every value becomes value × grams / 100, rounded to the nutrient's SR28
 * decimals, in exact decimal arithmetic (so `0.085 × 150 / 100` is 0.128 rounded, never 0.12749999...),
 * halves rounded away from zero.
 */

/** What the request asked for: an amount in grams (as given, for exact arithmetic) or a portion's seq. */
export type AmountRequest = { grams: string } | { portion: number };

const DECIMAL = /^\d{1,5}(?:\.\d{1,6})?$/;
const SEQ = /^\d{1,6}$/;

/** `?grams=` and `?portion=` from a detail's query (empty means absent); both at once or a bad number: 400. */
export function parseAmountQuery(query: URLSearchParams): AmountRequest | undefined {
  return amountRequest({ grams: query.get("grams") ?? undefined, portion: query.get("portion") ?? undefined });
}

/** `grams` and `portion` as a request gives them (empty means absent), checked as on a detail (a label's, too). */
export function amountRequest(raw: { grams?: string; portion?: string }): AmountRequest | undefined {
  const grams = raw.grams || undefined;
  const portion = raw.portion || undefined;
  if (grams !== undefined && portion !== undefined) throw apiError("VALIDATION_ERROR", "grams", "give either grams or portion, not both");
  if (grams !== undefined) return { grams: checkedGrams(grams) };
  if (portion !== undefined) {
    if (!SEQ.test(portion)) throw apiError("VALIDATION_ERROR", "portion", "must be the seq of one of the food's portions");
    return { portion: Number(portion) };
  }
  return undefined;
}

/** Grams as a decimal numeral: above 0, at most 10000, at most six decimals. */
function checkedGrams(raw: string): string {
  if (!DECIMAL.test(raw) || Number(raw) <= 0 || Number(raw) > GRAMS_MAX) {
    throw apiError("VALIDATION_ERROR", "grams", `must be a number above 0 and at most ${GRAMS_MAX}, with at most 6 decimals`);
  }
  return raw;
}

/** A JSON number for grams (the lookup body) as the numeral the same rules accept. */
export function gramsFromNumber(value: number): string {
  // Shortest round-trip form; below 1e-6 or with more decimals it fails the numeral check, as it should.
  return checkedGrams(Number.isFinite(value) ? String(value) : "NaN");
}

/**
 * `detail` for `amount`: every nutrient value scaled, `basis` saying what for. An unknown portion seq: 400.
 * `decimals` gives each nutrient's SR28 decimal places.
 */
export function scaleDetail(detail: FoodDetail, amount: AmountRequest, decimals: ReadonlyMap<string, number>): FoodDetail {
  const { grams, basis } = amountBasis(detail.portions, amount);
  if (basis.grams === PER_100_GRAMS.grams && basis.portion === null) return detail;
  return {
    ...detail,
    basis,
    nutrients: detail.nutrients.map((n) => ({ ...n, value: scaleValue(n.value, grams, decimals.get(n.number) ?? 3) })),
  };
}

type Portion = FoodDetail["portions"][number];

/**
 * What `amount` weighs among a food's `portions`: the grams as a decimal numeral (for exact arithmetic) and
 * the basis an answer states. An unknown portion seq: 400.
 */
export function amountBasis<P extends Portion>(portions: readonly P[], amount: AmountRequest): { grams: string; basis: { grams: number; portion: P | null } } {
  if ("grams" in amount) return { grams: amount.grams, basis: { grams: Number(amount.grams), portion: null } };
  const portion = portions.find((p) => p.seq === amount.portion);
  if (!portion) throw apiError("VALIDATION_ERROR", "portion", `this food has no portion ${amount.portion}`);
  return { grams: String(portion.grams), basis: { grams: portion.grams, portion } };
}

/** value × grams / 100, rounded half away from zero to `decimals` places, computed on exact decimals. */
function scaleValue(value: number, grams: string, decimals: number): number {
  const v = exactDecimal(String(value));
  const g = exactDecimal(grams);
  const digits = v.digits * g.digits;
  const scale = v.scale + g.scale + 2; // / 100
  let rounded: bigint;
  if (scale <= decimals) {
    rounded = digits * 10n ** BigInt(decimals - scale);
  } else {
    const divisor = 10n ** BigInt(scale - decimals);
    const negative = digits < 0n;
    const magnitude = negative ? -digits : digits;
    let q = magnitude / divisor;
    if ((magnitude % divisor) * 2n >= divisor) q += 1n;
    rounded = negative ? -q : q;
  }
  return Number(`${rounded}e-${decimals}`);
}

/** A decimal numeral (`12.5`, `-0.085`, `1e-7`) as integer digits and a power-of-ten scale: digits × 10^-scale. */
export function exactDecimal(numeral: string): { digits: bigint; scale: number } {
  const match = /^(-?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(numeral);
  if (!match) throw new Error(`not a decimal numeral: ${numeral}`);
  const [, sign = "", whole = "", fraction = "", exponent = "0"] = match;
  let digits = BigInt(`${sign}${whole}${fraction}` || "0");
  let scale = fraction.length - Number(exponent);
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { digits, scale };
}
