/**
 * bench/metrics-cost.ts: what counting a request for /metrics costs, measured in one process so that a busy
 * machine slows both sides alike. The same cached search is answered through the app (`handle`, then what
 * the server does after each answer) in alternating blocks, with the metrics off (as without a token: the
 * server skips `observe`) and on (`observe` records the request), 10 rounds of 20,000 each. Prints the time per
 * request of each and their ratio. The HTTP layer is left out, so the ratio overstates the share of a real
 * request's cost (bench/run measures that, over HTTP, in the same run as everything else).
 * Run: node_modules/.bin/bun bench/metrics-cost.ts (after build.sh, for dist/catalog.sqlite).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findOrCreatePasswordlessAccount } from "../src/accounts/service";
import { createFoodApi } from "../src/app/app";
import { loadConfig } from "../src/platform/config/config";
import { openCatalogStore } from "../src/catalog/catalog-db";
import { openState } from "../src/app/state/open-state";
import { issueKey } from "../src/keys/service";
import { CATALOG_PATH, ROOT } from "../test/helpers/paths";

const ROUNDS = 10;
const PER_BLOCK = 20_000;

/** The app as `serve` builds it, over the built catalog and a fresh SQLite state, with a key in it. */
async function appWith(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), "foodapi-metrics-cost-"));
  const config = loadConfig(new Map(), { FOODAPI_DATA_DIR: dataDir, FOODAPI_FREE_LIMIT: "100000000/1h", ...env });
  const catalog = await openCatalogStore(CATALOG_PATH, join(ROOT, "dist", "test-cache"));
  const state = await openState(config, () => {});
  const app = await createFoodApi({ config, catalog, state, clock: Date.now, logError: (error) => console.error(error) });
  const user = await findOrCreatePasswordlessAccount(state.accounts, "bench@example.com", Date.now());
  const issued = await issueKey(state.keys, Date.now, user.id, "bench");
  if (!issued.ok) throw new Error(issued.reason);
  return {
    app,
    key: issued.key.key,
    async close() {
      catalog.close();
      await state.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// One app for both sides (two apps differ by more than their metrics: which was built first, their caches'
// layout), with a token so that `observe` records; the "off" blocks skip `observe`, as the server does
// when no token is set.
const subject = await appWith({ FOODAPI_METRICS_TOKEN: "metrics-cost-token-0123456789" });
const off = subject;
const on = subject;
try {
  const keyOff = off.key;
  const keyOn = on.key;
  const url = "http://127.0.0.1:3000/v1/foods?q=chicken&limit=20";
  const block = async ({ app }: typeof off, key: string, observe: boolean) => {
    const started = performance.now();
    for (let i = 0; i < PER_BLOCK; i++) {
      const request = new Request(url, { headers: { "x-api-key": key } });
      const response = await app.handle(request);
      if (observe) app.observe(request, response.status, 0.02);
      await response.arrayBuffer();
    }
    return ((performance.now() - started) * 1000) / PER_BLOCK;
  };
  // Warm-up: caches, JIT.
  await block(off, keyOff, false);
  await block(on, keyOn, true);
  const times = { off: [] as number[], on: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    // Alternating which goes first cancels a drift within a round.
    if (round % 2 === 0) {
      times.off.push(await block(off, keyOff, false));
      times.on.push(await block(on, keyOn, true));
    } else {
      times.on.push(await block(on, keyOn, true));
      times.off.push(await block(off, keyOff, false));
    }
  }
  // `observe` alone, on an answered request: the whole added work per request, without the search around it.
  const request = new Request(url, { headers: { "x-api-key": keyOn } });
  const answered = await on.app.handle(request);
  const observeNs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    for (let i = 0; i < PER_BLOCK * 10; i++) on.app.observe(request, answered.status, 0.02);
    observeNs.push(((performance.now() - started) * 1e6) / (PER_BLOCK * 10));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const offUs = median(times.off);
  const onUs = median(times.on);
  console.log(`observe alone: ${median(observeNs).toFixed(0)} ns/request (median of ${ROUNDS} blocks of ${PER_BLOCK * 10})`);
  console.log(`in-process cached search: metrics off ${offUs.toFixed(2)} µs/request, on ${onUs.toFixed(2)} µs/request (medians of ${ROUNDS} blocks of ${PER_BLOCK}); on/off ${(onUs / offUs).toFixed(3)}`);
} finally {
  await subject.close();
}
