import { apiError } from "./errors";
import { type AmountRequest, gramsFromNumber } from "./amounts";
import { LOOKUP_MAX_FOODS } from "./model";
import type { DetailView } from "./service";

/**
 * `POST /v1/foods/lookup` (design §9): several foods' details in one request, each food number once, in
 * the order asked. It costs one unit of quota per distinct food number, so the body is checked here, by
 * plain functions, before anything is counted.
 */

export interface LookupRequest {
  /** Distinct, in request order. */
  readonly foodNumbers: readonly string[];
  readonly view: DetailView;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The body as a lookup, or the 400 naming the field. */
export function parseLookupBody(body: unknown): LookupRequest {
  if (!isObject(body)) throw apiError("VALIDATION_ERROR", "body", "must be a JSON object with foodNumbers");
  const { foodNumbers, nutrients, grams } = body;
  if (!Array.isArray(foodNumbers) || foodNumbers.length < 1 || foodNumbers.length > LOOKUP_MAX_FOODS) {
    throw apiError("VALIDATION_ERROR", "foodNumbers", `must be an array of 1 to ${LOOKUP_MAX_FOODS} food numbers`);
  }
  foodNumbers.forEach((n, i) => {
    if (typeof n !== "string") throw apiError("VALIDATION_ERROR", `foodNumbers.${i}`, "must be a string");
  });
  const selected = parseNutrientSelection(nutrients);
  let amount: AmountRequest | undefined;
  if (grams !== undefined) {
    if (typeof grams !== "number") throw apiError("VALIDATION_ERROR", "grams", "must be a number");
    amount = { grams: gramsFromNumber(grams) };
  }
  return { foodNumbers: [...new Set(foodNumbers as string[])], view: { nutrients: selected, amount } };
}

/**
 * A body's `nutrients` (a lookup's, a recipe analysis's): absent, or an array of nutrient numbers as strings,
 * trimmed; numbers that are no nutrient are kept, for the answer to ignore as the detail route does.
 */
export function parseNutrientSelection(nutrients: unknown): string[] | undefined {
  if (nutrients === undefined) return undefined;
  if (!Array.isArray(nutrients)) throw apiError("VALIDATION_ERROR", "nutrients", "must be an array of nutrient numbers");
  nutrients.forEach((n, i) => {
    if (typeof n !== "string") throw apiError("VALIDATION_ERROR", `nutrients.${i}`, "must be a string");
  });
  return nutrients.map((n: string) => n.trim());
}

const utf8 = new TextEncoder();
const ITEMS_OPEN = utf8.encode('{"items":[');
const COMMA = utf8.encode(",");

/**
 * Where answers are joined, written again by every lookup. A `Response` copies a byte body when it is made
 * (Bun), so an answer's bytes are garbage the moment its response exists: a fresh buffer per answer (ten
 * details are ~135 KB) would wait for a collection, and under load that is tens of megabytes of a worker's
 * memory. Answers longer than this get a buffer of their own, so that one large lookup does not keep its
 * size for the process's life.
 */
const SCRATCH_BYTES = 512 * 1024;
let scratch: Uint8Array<ArrayBuffer> | undefined;

/**
 * The answer's JSON bytes from each food's detail JSON bytes (null: not found), copied once into place: no
 * detail is parsed, decoded to a string or encoded again (a plain detail's bytes are the answers file's).
 * The bytes are valid until the next call: the route makes its response from them at once.
 */
export function lookupJsonBytes(foodNumbers: readonly string[], detailJson: (foodNumber: string) => Uint8Array | null): Uint8Array<ArrayBuffer> {
  const parts: Uint8Array[] = [ITEMS_OPEN];
  const notFound: string[] = [];
  for (const foodNumber of foodNumbers) {
    const json = detailJson(foodNumber);
    if (json === null) notFound.push(foodNumber);
    else parts.push(...(parts.length > 1 ? [COMMA, json] : [json]));
  }
  parts.push(utf8.encode(`],"notFound":${JSON.stringify(notFound)}}`));
  const length = parts.reduce((total, part) => total + part.byteLength, 0);
  const answer = length > SCRATCH_BYTES ? new Uint8Array(length) : (scratch ??= new Uint8Array(SCRATCH_BYTES)).subarray(0, length);
  let at = 0;
  for (const part of parts) {
    answer.set(part, at);
    at += part.byteLength;
  }
  return answer;
}
