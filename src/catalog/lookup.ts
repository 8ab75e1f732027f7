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
 * The answer's JSON bytes from each food's detail JSON bytes (null: not found), each copied into place as it
 * comes: no detail is parsed, decoded to a string or encoded again, and a detail's bytes are needed only
 * until the next food's are asked for (a plain detail's are read into a buffer the catalog reuses). The
 * answer is valid until the next call: the route makes its response from it at once.
 */
export function lookupJsonBytes(foodNumbers: readonly string[], detailJson: (foodNumber: string) => Uint8Array | null): Uint8Array<ArrayBuffer> {
  let answer = (scratch ??= new Uint8Array(SCRATCH_BYTES));
  let at = 0;
  const put = (bytes: Uint8Array) => {
    if (at + bytes.byteLength > answer.byteLength) {
      const larger = new Uint8Array(Math.max(2 * answer.byteLength, at + bytes.byteLength));
      larger.set(answer.subarray(0, at));
      answer = larger;
    }
    answer.set(bytes, at);
    at += bytes.byteLength;
  };
  put(ITEMS_OPEN);
  const notFound: string[] = [];
  let found = 0;
  for (const foodNumber of foodNumbers) {
    const json = detailJson(foodNumber);
    if (json === null) notFound.push(foodNumber);
    else {
      if (found++ > 0) put(COMMA);
      put(json);
    }
  }
  put(utf8.encode(`],"notFound":${JSON.stringify(notFound)}}`));
  return answer.subarray(0, at);
}
