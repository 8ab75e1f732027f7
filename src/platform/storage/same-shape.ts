/**
 * `true` when two types have exactly the same shape. Each declared table states with it that its rows are the
 * domain type of its store contract, so a column added to one and not the other does not compile.
 */
export type SameShape<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
