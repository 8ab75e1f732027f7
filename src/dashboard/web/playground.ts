import { callApi, type ApiResult, type Credential, quotaOf } from "./api";
import { byId, el, onSubmit } from "./dom";
import { labelFigure, type NutritionLabel } from "./label-figure";
import { type MessageArea, messageArea } from "./messages";

interface SearchResult {
  /** `nutrients` only with a nutrient sort or filter: the named nutrients' values per 100 g. */
  items: { foodNumber: string; name: string; nutrients?: { number: string; value: number | null; unit: string }[] }[];
  total: number;
  page: number;
  limit: number;
}
interface Portion {
  seq: number;
  amount: number;
  description: string;
  grams: number;
}
interface FoodDetail {
  foodNumber: string;
  name: string;
  group: { code: string; name: string };
  refuse: { percent: number | null; description: string | null };
  basis: { grams: number; portion: Portion | null };
  nutrients: { number: string; name: string; unit: string; value: number | null }[];
  portions: Portion[];
  footnotes: { number: string; type: string; nutrientNumber: string | null; text: string }[];
}

/** What the nutrient values are for: 100 g, grams asked for, or a portion (API `?portion=` / `?grams=`). */
type Amount = { portion: number } | { grams: string } | null;

const portionLabel = (p: Portion) => `${p.amount} ${p.description} (${p.grams} g)`;
const FOOTNOTE_KINDS: Record<string, string> = { D: "Food", M: "Portion", N: "Nutrient" };
interface FoodGroup {
  code: string;
  name: string;
  foodCount: number;
}
interface NutrientName {
  number: string;
  name: string;
  unit: string;
}

/** Search with a key or the trial token; a food's nutrients as a table; the credential's quota from `RateLimit`. */
export function setupPlayground(events: { onTrialQuota(remaining: number): void }) {
  const keyInput = byId<HTMLInputElement>("playground-key");
  const useKey = byId<HTMLInputElement>("use-api-key");
  const useTrial = byId<HTMLInputElement>("use-trial");
  const keyField = byId("playground-key-field");
  const keyMessages = messageArea("playground-key", keyField);
  // Every refusal of a data call, at the end of the search form: the results and the food detail below it
  // go with a refusal, so this is the nearest place to what was clicked, whichever it was.
  const searchMessages = messageArea("search", byId("search-form"));
  let trialToken: string | undefined;
  let groupsLoaded = false;
  // The key field only while a key is the credential: with the trial token it would only invite typing.
  const showKeyField = () => (keyField.hidden = useTrial.checked);
  useKey.addEventListener("change", showKeyField);
  useTrial.addEventListener("change", showKeyField);
  let page = 1;

  const credential = (): Credential | undefined => {
    if (useTrial.checked && trialToken) return { kind: "trial", value: trialToken };
    const key = keyInput.value.trim();
    return key ? { kind: "key", value: key } : undefined;
  };

  /**
   * Every call with the playground's credential (the search's, the food view's, the recipe panel's): shows the
   * quota left (refusals carry it too), and says a refusal in `messages`, about `fields` (the key typed, for
   * a refused credential).
   */
  const credentialCall = async <T>(
    method: string,
    path: string,
    options: { body?: unknown; messages: MessageArea; fields?: (refusal: { status: number; message: string }) => HTMLElement[] },
  ): Promise<T | undefined> => {
    const current = credential();
    if (!current) {
      options.messages.fail("Enter an API key in the playground, or get a trial token above.", [keyInput]);
      return undefined;
    }
    const result: ApiResult<T> = await callApi<T>(method, path, { credential: current, body: options.body });
    const quota = quotaOf(result.headers);
    if (quota) {
      const what = quota.policy === "trial" ? "trial requests" : "requests in this window";
      for (const line of document.querySelectorAll(".quota")) line.textContent = `${quota.remaining} of ${quota.limit} ${what} left.`;
      if (current.kind === "trial") events.onTrialQuota(quota.remaining);
    }
    if (!result.ok) {
      options.messages.fail(result.message, result.status === 401 && current.kind === "key" ? [keyInput] : (options.fields?.(result) ?? []));
      return undefined;
    }
    return result.data;
  };

  const dataCall = async <T>(path: string): Promise<T | undefined> => {
    const data = await credentialCall<T>("GET", path, { messages: searchMessages });
    // An answer on screen from before a refusal would read as the answer to this request.
    if (data === undefined) hideAnswers();
    return data;
  };

  const hideAnswers = () => {
    byId("result-summary").textContent = "";
    byId("results").hidden = true;
    byId("food-detail").hidden = true;
  };

  const nutrientNames = new Map<string, string>();
  // From the page's own assets, not the data routes: the lists cost a trial token none of its requests.
  const loadGroups = async () => {
    if (groupsLoaded) return;
    const [result, nutrients] = await Promise.all([
      callApi<{ items: FoodGroup[] }>("GET", "/assets/food-groups.json"),
      callApi<{ items: NutrientName[] }>("GET", "/assets/nutrients.json"),
    ]);
    if (!result.ok || !nutrients.ok) return;
    const groups = result.data;
    groupsLoaded = true;
    const select = byId<HTMLSelectElement>("search-group");
    select.append(...groups.items.map((group) => el("option", `${group.name} (${group.foodCount})`, { value: group.code })));
    for (const nutrient of nutrients.data.items) nutrientNames.set(nutrient.number, nutrient.name);
    const option = (nutrient: NutrientName, value: string) => el("option", `${nutrient.name} (${nutrient.unit})`, { value });
    byId("search-sort-nutrients").append(...nutrients.data.items.map((n) => option(n, `nutrient.${n.number}`)));
    byId("filter-nutrient").append(...nutrients.data.items.map((n) => option(n, n.number)));
  };

  /** The form as query parameters: `nutrient.<n>=<min>..<max>` when a filter nutrient and a bound are given. */
  const searchParams = () => {
    const params = new URLSearchParams({ page: String(page), limit: byId<HTMLSelectElement>("search-limit").value });
    const q = byId<HTMLInputElement>("search-q").value.trim();
    const fields: [string, string][] = [
      ["q", q],
      ["group", byId<HTMLSelectElement>("search-group").value],
      ["sort", byId<HTMLSelectElement>("search-sort").value],
      ["order", byId<HTMLSelectElement>("search-order").value],
    ];
    for (const [name, value] of fields) if (value) params.set(name, value);
    const filter = byId<HTMLSelectElement>("filter-nutrient").value;
    const [min, max] = ["filter-min", "filter-max"].map((id) => byId<HTMLInputElement>(id).value.trim());
    if (filter && (min || max)) params.set(`nutrient.${filter}`, `${min}..${max}`);
    return { params, q };
  };

  const search = async () => {
    await loadGroups();
    const { params, q } = searchParams();
    const result = await dataCall<SearchResult>(`/v1/foods?${params}`);
    if (!result) return;
    renderResults(result, q, params);
  };

  const renderResults = (result: SearchResult, q: string, params: URLSearchParams) => {
    const pages = Math.max(1, Math.ceil(result.total / result.limit));
    const matching = q ? ` matching “${q}”` : "";
    byId("result-summary").textContent =
      result.total === 0 ? `No foods match${q ? ` “${q}”` : ""}.${widerSearchHint(params)}` : `${result.total} ${result.total === 1 ? "food" : "foods"}${matching}.`;
    const list = byId<HTMLOListElement>("result-list");
    // Numbered across pages: page 2 of 20 a page starts at 21.
    list.start = (result.page - 1) * result.limit + 1;
    list.replaceChildren(
      ...result.items.map((food) => {
        const button = el("button", `${food.name} (${food.foodNumber})`, { type: "button" });
        button.addEventListener("click", () => showFood(food.foodNumber));
        const item = el("li");
        item.append(button);
        const values = (food.nutrients ?? []).map(
          (n) => `${nutrientNames.get(n.number) ?? n.number} ${n.value === null ? "—" : `${n.value} ${n.unit}`}`,
        );
        if (values.length > 0) item.append(el("span", ` · ${values.join(" · ")}`, { class: "nutrient-values" }));
        return item;
      }),
    );
    // A food shown from an earlier page or search does not belong under these results.
    byId("food-detail").hidden = true;
    byId("page-info").textContent = `Page ${result.page} of ${pages}`;
    byId<HTMLButtonElement>("prev-page").disabled = result.page <= 1;
    byId<HTMLButtonElement>("next-page").disabled = result.page >= pages;
    // Nothing found: nothing to page through either; the summary says what to try instead.
    byId("results").hidden = result.total === 0;
  };

  let shownFood: string | undefined;
  const showFood = async (foodNumber: string, amount: Amount = null) => {
    const query = amount === null ? "" : "portion" in amount ? `?portion=${amount.portion}` : `?grams=${encodeURIComponent(amount.grams)}`;
    const food = await dataCall<FoodDetail>(`/v1/foods/${encodeURIComponent(foodNumber)}${query}`);
    if (!food) return;
    const sameFood = shownFood === food.foodNumber;
    shownFood = food.foodNumber;
    byId("food-name").textContent = food.name;
    byId("food-group").textContent = `${food.group.name} · food number ${food.foodNumber}`;
    const { percent, description } = food.refuse;
    byId("food-refuse").textContent = percent ? `Refuse: ${percent}%${description ? ` (${description})` : ""}; amounts are of the edible portion.` : "No refuse: all of it is edible.";
    const portions = byId<HTMLSelectElement>("amount-portion");
    if (!sameFood) {
      portions.replaceChildren(el("option", "100 g", { value: "" }), ...food.portions.map((p) => el("option", portionLabel(p), { value: String(p.seq) })));
      byId<HTMLInputElement>("amount-grams").value = "";
    }
    portions.value = food.basis.portion ? String(food.basis.portion.seq) : "";
    byId("nutrient-caption").textContent = food.basis.portion
      ? `Nutrients in ${portionLabel(food.basis.portion)} of edible portion`
      : `Nutrients per ${food.basis.grams} g of edible portion`;
    byId("food-footnotes").replaceChildren(
      ...food.footnotes.map((note) => {
        const about = note.nutrientNumber ? food.nutrients.find((n) => n.number === note.nutrientNumber)?.name ?? `nutrient ${note.nutrientNumber}` : FOOTNOTE_KINDS[note.type] ?? note.type;
        return el("li", `${about}: ${note.text}`);
      }),
    );
    byId("food-footnotes-section").hidden = food.footnotes.length === 0;
    byId("nutrient-rows").replaceChildren(
      ...food.nutrients.map((nutrient) => {
        const row = el("tr");
        row.append(el("td", nutrient.name), el("td", nutrient.value === null ? "—" : String(nutrient.value), { class: "number" }), el("td", nutrient.unit));
        return row;
      }),
    );
    byId("food-detail").hidden = false;
    void showLabel(food);
    // Another food: its name has the focus. The same food in another amount: its caption, a live region, says so.
    if (!sameFood) byId("food-name").focus();
  };

  /** The food's Nutrition Facts label for the serving its table shows (one more request of the quota). */
  const showLabel = async (food: FoodDetail) => {
    const box = byId("food-label");
    box.replaceChildren();
    const serving = food.basis.portion ? `portion=${food.basis.portion.seq}` : `grams=${food.basis.grams}`;
    const label = await credentialCall<NutritionLabel>("GET", `/v1/foods/${encodeURIComponent(food.foodNumber)}/label?${serving}`, { messages: searchMessages });
    // Another food or amount asked for meanwhile: its own label is on its way.
    if (label && shownFood === food.foodNumber) box.replaceChildren(labelFigure(label));
  };

  // A portion picked applies at once; grams apply with the button (or Enter).
  byId<HTMLSelectElement>("amount-portion").addEventListener("change", (event) => {
    if (!shownFood) return;
    const seq = (event.target as HTMLSelectElement).value;
    byId<HTMLInputElement>("amount-grams").value = "";
    void showFood(shownFood, seq ? { portion: Number(seq) } : null);
  });
  onSubmit(byId<HTMLFormElement>("amount-form"), async () => {
    if (!shownFood) return;
    const grams = byId<HTMLInputElement>("amount-grams").value.trim();
    const seq = byId<HTMLSelectElement>("amount-portion").value;
    await showFood(shownFood, grams ? { grams } : seq ? { portion: Number(seq) } : null);
  });

  onSubmit(byId<HTMLFormElement>("search-form"), async () => {
    page = 1;
    await search();
  });
  byId("prev-page").addEventListener("click", () => {
    page = Math.max(1, page - 1);
    void search();
  });
  byId("next-page").addEventListener("click", () => {
    page += 1;
    void search();
  });

  void loadGroups();

  return {
    call: credentialCall,
    /** After sign-out, a key of that account has no business staying in the playground. */
    forgetApiKey() {
      keyInput.value = "";
      hideAnswers();
    },
    useApiKey(key: string) {
      keyInput.value = key;
      useKey.checked = true;
      showKeyField();
      byId("search-q").focus();
      keyMessages.say("The playground now uses your new key.");
    },
    useTrialToken(token: string) {
      trialToken = token;
      useTrial.disabled = false;
      useTrial.checked = true;
      showKeyField();
      void loadGroups();
    },
  };
}

/** What to try when a search finds nothing (" Try …", or nothing): fewer words, and leaving out whatever else narrowed it. */
function widerSearchHint(params: URLSearchParams): string {
  const tries: string[] = [];
  if (params.has("q")) tries.push("fewer or shorter words (each must occur in the food's name)");
  if (params.has("group")) tries.push("all groups");
  if ([...params.keys()].some((name) => name.startsWith("nutrient."))) tries.push("a wider nutrient filter, or none");
  return tries.length === 0 ? "" : ` Try ${tries.join(", ")}.`;
}
