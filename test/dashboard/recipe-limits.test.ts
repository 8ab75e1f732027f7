import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LINE_MAX_CODE_POINTS, LINES_MAX, SERVINGS_MAX } from "../../src/analysis/model";
import { TRIAL_TOKEN_REQUESTS } from "../../src/trial/token";
import { ROOT } from "../helpers/paths";

/**
 * The recipe panel states the analysis's limits and a trial token's allowance in its static page: each
 * figure there is the one its declaration holds, so that changing a limit and not the page fails here.
 */
const page = readFileSync(join(ROOT, "src/dashboard/web/index.html"), "utf8");

describe("the recipe panel's figures", () => {
  test("the lines' hint, the servings field's bounds and the cost note say the API's limits", () => {
    expect(page).toContain(`up to ${LINES_MAX} lines of ${LINE_MAX_CODE_POINTS} characters`);
    expect(page).toMatch(new RegExp(`id="recipe-servings"[^>]* min="1" max="${SERVINGS_MAX}"`));
    expect(page).toContain(`Costs one request per line (a trial token has ${TRIAL_TOKEN_REQUESTS}).`);
  });
});
