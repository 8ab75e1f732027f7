import { DATA_ERRORS } from "../catalog/routes";
import type { CatalogStore } from "../catalog/store";
import { servingLabel } from "../label/label";
import { type CredentialGuard, guardedBody, guardedJson } from "../platform/http/credential-guard";
import type { DirectHandler } from "../platform/http/route";
import type { DirectRouteSpec } from "../platform/http/route-table";
import { AnalyzeBody, type AnalyzeResult, AnalyzeResult as AnalyzeResultSchema, LINES_MAX, SuggestQuery, SuggestResult } from "./model";
import { type AnalyzeRequest, parseAnalyzeBody, parseSuggestQuery } from "./request";
import type { Analysis } from "./service";

type AnalysisService = typeof import("./service");
type AnalysisHandlers = { analyze: DirectHandler; suggest: DirectHandler };

/**
 * Recipe analysis and name suggestions (decisions §16), behind the credential guard. The analysis's name
 * index takes a fraction of a second to build and megabytes to hold (docs/analysis.md; its typo index is
 * built apart, when first needed): it is built by the first analysis or suggestion a worker answers, never
 * when the app is made or the server starts, so that a worker that never analyses pays neither (the 150 MB
 * per-worker budget of design §18 holds for search). Its code (the line parser, the matcher and their
 * vocabularies) is loaded then too: evaluating it would cost every start some milliseconds on the way to its
 * first answer.
 */
export function analysisRoutes(store: CatalogStore, guard: CredentialGuard): DirectRouteSpec[] {
  let handlers: AnalysisHandlers | undefined;
  let loading: Promise<AnalysisHandlers> | undefined;
  const load = () => (loading ??= import("./service").then((service) => (handlers = analysisHandlers(service, store, guard))));
  const lazily =
    (pick: (loaded: AnalysisHandlers) => DirectHandler): DirectHandler =>
    (request, target) =>
      handlers ? pick(handlers)(request, target) : load().then((loaded) => pick(loaded)(request, target));

  const routes: DirectRouteSpec[] = [
    {
      method: "POST",
      path: "/v1/analyze",
      body: AnalyzeBody,
      response: { 200: AnalyzeResultSchema },
      summary: "A recipe's nutrition from its ingredient lines",
      description: `1 to ${LINES_MAX} lines as a cook writes them ("1 cup chopped onion"): each is matched to an SR28 food and turned into grams through the food's portions, then the matched lines are added up, in all and per serving. Each item says \`matched\`, or \`unmatched\` with its \`reason\` (\`food\`, \`quantity\`, \`unit\`): an unmatched line counts 0 grams. \`"label": true\` adds the Nutrition Facts label of one serving. Costs one unit of quota per line, all or nothing: with fewer left, 429 and nothing is counted. A body that is too large, not JSON or not an analysis costs one unit. How lines are read and matched: docs/analysis.md.`,
      tags: ["Analysis"],
      credential: "apiKeyOrTrial",
      errors: [...DATA_ERRORS, "VALIDATION_ERROR"],
      requestExample: { lines: ["1 cup chopped onion", "2 tbsp olive oil", "salt to taste"], servings: 2, nutrients: ["208", "203"] },
      examples: {
        "200": {
          items: [
            {
              line: "1 cup chopped onion",
              status: "matched",
              quantity: 1,
              unit: "cup",
              food: { foodNumber: "11282", name: "Onions, raw" },
              portion: { seq: 1, amount: 1, description: "cup, chopped", grams: 160 },
              grams: 160,
              confidence: 0.93,
              alternatives: [{ foodNumber: "11291", name: "Onions, spring or scallions (includes tops and bulb), raw" }],
            },
          ],
          servings: 2,
          totalGrams: 160,
          totals: [{ number: "208", name: "Energy", unit: "kcal", value: 64 }],
          perServing: { grams: 80, nutrients: [{ number: "208", name: "Energy", unit: "kcal", value: 32 }] },
        },
      },
      handle: lazily((loaded) => loaded.analyze),
    },
    {
      path: "/v1/foods/suggest",
      query: SuggestQuery,
      response: { 200: SuggestResult },
      summary: "Food names as a person types them",
      description:
        "Typo-tolerant (\"chedar\" finds Cheese, cheddar; \"brocoli\" Broccoli, raw), the last word taken as a prefix, raw and plain forms first. `q` outside 2 to 100 characters is a 400. One unit of quota per request.",
      tags: ["Analysis"],
      credential: "apiKeyOrTrial",
      errors: [...DATA_ERRORS, "VALIDATION_ERROR"],
      examples: { "200": { items: [{ foodNumber: "01009", name: "Cheese, cheddar" }] } },
      handle: lazily((loaded) => loaded.suggest),
    },
  ];
  return routes;
}

/** The two routes' handlers over the analysis's code, once loaded. */
function analysisHandlers(service: AnalysisService, store: CatalogStore, guard: CredentialGuard): AnalysisHandlers {
  let analysis: Analysis | undefined;
  const ready = () => (analysis ??= service.createAnalysis(store));
  return {
    analyze: guardedBody<AnalyzeRequest>(guard, {
      parse: parseAnalyzeBody,
      cost: (request) => request.lines.length,
      answer: (request) => JSON.stringify(analyzed(service, ready(), request)),
    }),
    suggest: guardedJson(guard, ({ search }) => {
      const { q, limit } = parseSuggestQuery(search);
      return JSON.stringify(service.suggestFoods(ready(), q, limit));
    }),
  };
}

/** The analysis, with the label of a serving when asked: made from every nutrient, whichever are listed. */
function analyzed(service: AnalysisService, analysis: Analysis, request: AnalyzeRequest): AnalyzeResult {
  const { analyzeRecipe } = service;
  if (!request.label) return analyzeRecipe(analysis, request);
  const full = analyzeRecipe(analysis, { ...request, nutrients: undefined });
  const per = full.perServing;
  const label = servingLabel({ grams: per.grams, description: "1 serving" }, new Map(per.nutrients.map((n) => [n.number, n.value])));
  if (request.nutrients === undefined) return { ...full, label };
  const wanted = new Set(request.nutrients);
  const listed = (totals: AnalyzeResult["totals"]) => totals.filter((n) => wanted.has(n.number));
  return { ...full, totals: listed(full.totals), perServing: { grams: per.grams, nutrients: listed(per.nutrients) }, label };
}
