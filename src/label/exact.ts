import { exactDecimal } from "../catalog/amounts";

/**
 * Exact non-negative rationals, for the label's rounding: a half must round up wherever it falls, and in
 * binary floating point 0.5 × 14.2 / 100 or 140 / 2300 are not what they say (design: docs/label.md).
 * Every amount a label rounds is a terminating decimal (a value per 100 g times grams, both decimal
 * numerals), so it is held as one; only a percentage of a Daily Value needs a denominator of another kind.
 */
export interface Exact {
  readonly n: bigint;
  /** Above zero. */
  readonly d: bigint;
}

/** A number as the decimal numeral it prints as (`0.1` is one tenth, not the double nearest to it). */
export function exact(value: number): Exact {
  const { digits, scale } = exactDecimal(String(value));
  return { n: digits, d: 10n ** BigInt(scale) };
}

export const times = (a: Exact, b: Exact): Exact => ({ n: a.n * b.n, d: a.d * b.d });
export const over = (a: Exact, b: Exact): Exact => ({ n: a.n * b.d, d: a.d * b.n });

/** a < b */
export const below = (a: Exact, b: Exact): boolean => a.n * b.d < b.n * a.d;
export const isZero = (a: Exact): boolean => a.n === 0n;

/** The multiple of `step` nearest to `a` (never negative), a half rounding up: floor(a / step + 1/2) × step. */
export function nearest(a: Exact, step: Exact): Exact {
  const k = (2n * a.n * step.d + a.d * step.n) / (2n * a.d * step.n);
  return { n: k * step.n, d: step.d };
}

/** A rational whose denominator divides a power of ten as a plain decimal numeral ("0.5", "140", "9.3268"). */
export function decimalText(a: Exact): string {
  let scale = 0;
  let power = 1n;
  while ((a.n * power) % a.d !== 0n) {
    if (++scale > 40) throw new Error("not a terminating decimal");
    power *= 10n;
  }
  const digits = ((a.n * power) / a.d).toString().padStart(scale + 1, "0");
  if (scale === 0) return digits;
  const fraction = digits.slice(-scale).replace(/0+$/, "");
  const whole = digits.slice(0, -scale);
  return fraction === "" ? whole : `${whole}.${fraction}`;
}
