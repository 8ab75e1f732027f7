import { parseNutrientSelection } from "../catalog/lookup";
import { clampedInteger } from "../catalog/search-params";
import { apiError } from "./errors";
import {
  LINE_MAX_CODE_POINTS,
  LINES_MAX,
  SERVINGS_MAX,
  SUGGEST_LIMIT_DEFAULT,
  SUGGEST_LIMIT_MAX,
  SUGGEST_QUERY_MAX_CODE_POINTS,
  SUGGEST_QUERY_MIN_CODE_POINTS,
} from "./model";

/**
 * The checks of `POST /v1/analyze` and `GET /v1/foods/suggest` (decisions §16), as plain functions over the
 * parsed body or the raw query: each returns the request or throws the 400 VALIDATION_ERROR naming the
 * field, which the route answers (and counts, as every malformed body costs one unit).
 */

export interface AnalyzeRequest {
  /** As sent: each is reported back as it came; the analysis trims. */
  readonly lines: readonly string[];
  readonly servings: number;
  /** Only these nutrient numbers in the totals; undefined for all. */
  readonly nutrients: readonly string[] | undefined;
  /** The label of a serving too (decisions §17). */
  readonly label?: boolean;
}

const FIELDS = new Set(["lines", "servings", "nutrients", "label"]);
const codePoints = (text: string) => [...text].length;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export function parseAnalyzeBody(body: unknown): AnalyzeRequest {
  if (!isObject(body)) throw apiError("VALIDATION_ERROR", "body", "must be a JSON object with lines");
  for (const field of Object.keys(body)) {
    if (!FIELDS.has(field)) throw apiError("VALIDATION_ERROR", field.slice(0, 40), "is not a field of this request (lines, servings, nutrients, label)");
  }
  const { lines, servings, nutrients, label } = body;
  if (!Array.isArray(lines) || lines.length < 1 || lines.length > LINES_MAX) {
    throw apiError("VALIDATION_ERROR", "lines", `must be an array of 1 to ${LINES_MAX} ingredient lines`);
  }
  lines.forEach((line, i) => {
    if (typeof line !== "string") throw apiError("VALIDATION_ERROR", `lines.${i}`, "must be a string");
    const length = codePoints(line.trim());
    if (length < 1 || length > LINE_MAX_CODE_POINTS) {
      throw apiError("VALIDATION_ERROR", `lines.${i}`, `must be 1 to ${LINE_MAX_CODE_POINTS} characters after trimming`);
    }
  });
  if (servings !== undefined && (typeof servings !== "number" || !Number.isInteger(servings) || servings < 1 || servings > SERVINGS_MAX)) {
    throw apiError("VALIDATION_ERROR", "servings", `must be an integer from 1 to ${SERVINGS_MAX}`);
  }
  if (label !== undefined && typeof label !== "boolean") throw apiError("VALIDATION_ERROR", "label", "must be true or false");
  return { lines: lines as string[], servings: servings ?? 1, nutrients: parseNutrientSelection(nutrients), label: label === true };
}

export interface SuggestRequest {
  readonly q: string;
  readonly limit: number;
}

/** `q` (2 to 100 code points after trimming) and `limit` (an integer, clamped to 1-20, default 10). */
export function parseSuggestQuery(search: string): SuggestRequest {
  const query = new URLSearchParams(search);
  const q = (query.get("q") ?? "").trim();
  const length = codePoints(q);
  if (length < SUGGEST_QUERY_MIN_CODE_POINTS || length > SUGGEST_QUERY_MAX_CODE_POINTS) {
    throw apiError("VALIDATION_ERROR", "q", `must be ${SUGGEST_QUERY_MIN_CODE_POINTS} to ${SUGGEST_QUERY_MAX_CODE_POINTS} characters after trimming`);
  }
  const limit = clampedInteger("limit", query.get("limit") ?? undefined, { fallback: SUGGEST_LIMIT_DEFAULT, min: 1, max: SUGGEST_LIMIT_MAX });
  return { q, limit };
}
