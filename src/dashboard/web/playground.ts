import { callApi, type ApiResult, type Credential, quotaOf } from "./api";
import { announce, byId, el, onSubmit, reportError } from "./dom";

interface SearchResult {
  /** `nutrients` only with a nutrient sort or filter: the named nutrients' values per 100 g. */
  items: { foodNumber: string; name: string; nutrients?: { number: string; value: number | null; unit: string }[] }[];
  total: number;
  page: number;
  limit: number;
}
interface FoodDetail {
  foodNumber: string;
  name: string;
  group: { code: string; name: string };
  nutrients: { number: string; name: string; unit: string; value: number | null }[];
}
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

  /** Every data call: shows the quota left (refusals carry it too), and reports a refusal. */
  const dataCall = async <T>(path: string): Promise<T | undefined> => {
    const current = credential();
    if (!current) {
      reportError("Enter an API key, or get a trial token above, to use the playground.");
      return undefined;
    }
    const result: ApiResult<T> = await callApi<T>("GET", path, { credential: current });
    const quota = quotaOf(result.headers);
    if (quota) {
      const what = quota.policy === "trial" ? "trial requests" : "requests in this window";
      byId("quota").textContent = `${quota.remaining} of ${quota.limit} ${what} left.`;
      if (current.kind === "trial") events.onTrialQuota(quota.remaining);
    }
    if (!result.ok) {
      // An answer on screen from before the refusal would read as the answer to this request.
      byId("results").hidden = true;
      byId("food-detail").hidden = true;
      reportError(result.message);
      return undefined;
    }
    return result.data;
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
    renderResults(result, q);
  };

  const renderResults = (result: SearchResult, q: string) => {
    const pages = Math.max(1, Math.ceil(result.total / result.limit));
    const matching = q ? ` matching “${q}”` : "";
    byId("result-summary").textContent = `${result.total} ${result.total === 1 ? "food" : "foods"}${matching}.`;
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
    byId("results").hidden = false;
    announce(byId("result-summary").textContent ?? "");
  };

  const showFood = async (foodNumber: string) => {
    const food = await dataCall<FoodDetail>(`/v1/foods/${encodeURIComponent(foodNumber)}`);
    if (!food) return;
    byId("food-name").textContent = food.name;
    byId("food-group").textContent = `${food.group.name} · food number ${food.foodNumber}`;
    byId("nutrient-rows").replaceChildren(
      ...food.nutrients.map((nutrient) => {
        const row = el("tr");
        row.append(el("td", nutrient.name), el("td", nutrient.value === null ? "—" : String(nutrient.value), { class: "number" }), el("td", nutrient.unit));
        return row;
      }),
    );
    byId("food-detail").hidden = false;
    byId("food-name").focus();
  };

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
    /** After sign-out, a key of that account has no business staying in the playground. */
    forgetApiKey() {
      keyInput.value = "";
      byId("results").hidden = true;
      byId("food-detail").hidden = true;
    },
    useApiKey(key: string) {
      keyInput.value = key;
      useKey.checked = true;
      showKeyField();
      byId("search-q").focus();
      announce("The playground now uses your new key.");
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
