import { below, type Exact, exact, isZero, nearest } from "./exact";

/**
 * The rounding of 21 CFR 101.9(c) as decisions §17 states it, each rule a plain function of the unrounded
 * amount per serving. A rule's result is either a rounded amount or "less than" a limit ("<5mg", "<1g").
 */
export type Shown = { readonly amount: Exact } | { readonly lessThan: Exact };
export type DisplayRule = (amount: Exact) => Shown;
/** From a percentage of the Daily Value, unrounded, to the percentage the label states. */
export type PercentRule = (percent: Exact) => Exact;

const ZERO: Shown = { amount: exact(0) };
const toNearest = (step: number): DisplayRule => {
  const s = exact(step);
  return (a) => ({ amount: nearest(a, s) });
};
const toTenth = toNearest(0.1);
const toHalf = toNearest(0.5);
const toOne = toNearest(1);
const toFive = toNearest(5);
const toTen = toNearest(10);
const lessThan = (limit: number): Shown => ({ lessThan: exact(limit) });
/** a < limit, a ≤ limit: the rules' limits written as the regulation writes them. */
const under = (a: Exact, limit: number) => below(a, exact(limit));
const upTo = (a: Exact, limit: number) => !below(exact(limit), a);

/** Under 5 kcal: 0; up to and including 50: nearest 5; above: nearest 10. */
export const calories: DisplayRule = (a) => (under(a, 5) ? ZERO : upTo(a, 50) ? toFive(a) : toTen(a));

/** Total, saturated and trans fat: under 0.5 g, 0; under 5 g, nearest 0.5 g; else nearest 1 g. */
export const fat: DisplayRule = (a) => (under(a, 0.5) ? ZERO : under(a, 5) ? toHalf(a) : toOne(a));

/** Under 2 mg: 0; 2 to 5 mg: "less than 5 mg"; above: nearest 5 mg. */
export const cholesterol: DisplayRule = (a) => (under(a, 2) ? ZERO : upTo(a, 5) ? lessThan(5) : toFive(a));

/** Sodium and potassium: under 5 mg, 0; 5 to 140 mg, nearest 5 mg; above, nearest 10 mg. */
export const sodiumOrPotassium: DisplayRule = (a) => (under(a, 5) ? ZERO : upTo(a, 140) ? toFive(a) : toTen(a));

/** Carbohydrate, fiber, sugars and protein: under 0.5 g, 0; under 1 g, "less than 1 g"; else nearest 1 g. */
export const grams: DisplayRule = (a) => (under(a, 0.5) ? ZERO : under(a, 1) ? lessThan(1) : toOne(a));

/** Vitamin D and iron: nearest 0.1 (mcg, mg). */
export const nearestTenth: DisplayRule = toTenth;
/** Calcium: nearest 10 mg. */
export const nearestTen: DisplayRule = toTen;

export const isZeroShown = (shown: Shown): boolean => "amount" in shown && isZero(shown.amount);

const percentTo = (step: number): PercentRule => {
  const s = exact(step);
  return (p) => nearest(p, s);
};
const percentToTwo = percentTo(2);
const percentToFive = percentTo(5);
const percentToTen = percentTo(10);

/** Macronutrients (and cholesterol, sodium): the nearest 1 %. */
export const wholePercent: PercentRule = percentTo(1);

/**
 * Vitamins and minerals (101.9(c)(8)(iii)): the nearest 2 % up to and including 10 %, the nearest 5 % up to
 * and including 50 %, the nearest 10 % above. (So 1 % and more, under 2 %, is stated as 2 %; under 1 %, 0.)
 */
export const vitaminOrMineralPercent: PercentRule = (p) => (upTo(p, 10) ? percentToTwo(p) : upTo(p, 50) ? percentToFive(p) : percentToTen(p));
