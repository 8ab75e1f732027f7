/**
 * The request metrics one process keeps: counts by route template, method and status, a latency
 * histogram per route, refusals (401, 429) by cause. Hand-written rather than
 * prom-client: `record` runs on every request, and measured against prom-client's labelled
 * `inc` + `observe` it costs a fraction (docs/performance.md has the figures). A snapshot is plain data, so
 * that workers can send theirs to the process being scraped (fleet.ts) and the text format is written
 * once, from the merged snapshots (exposition.ts).
 *
 * Labels are route templates, methods, statuses and refusal causes: bounded sets. Never a raw path, key
 * id, e-mail or IP.
 */

/** Upper bounds in seconds: a cached search is ~20 µs of server time, a detail ~50 µs, argon2 ~50 ms. */
export const LATENCY_BUCKETS_SECONDS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5] as const;

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const OTHER_METHOD = METHODS.length;
const METHOD_NAMES: readonly string[] = [...METHODS, "OTHER"];
const methodIndex = (method: string): number => {
  const index = (METHODS as readonly string[]).indexOf(method);
  return index === -1 ? OTHER_METHOD : index;
};

/** A route's counters: requests keyed by `method index * 1000 + status` (a number: no string per request). */
interface RouteSeries {
  readonly requests: Map<number, number>;
  /** Per bucket, not cumulative; the last slot counts what exceeded every bound (+Inf). */
  readonly buckets: number[];
  sumSeconds: number;
  count: number;
}

interface HistogramSnapshot {
  /** Per bucket of LATENCY_BUCKETS_SECONDS, not cumulative, and one more for +Inf. */
  buckets: number[];
  sum: number;
  count: number;
}

/** One process's metrics as plain data (sent between processes as JSON). */
export interface MetricsSnapshot {
  worker: number;
  /** route → `METHOD STATUS` → count */
  requests: Record<string, Record<string, number>>;
  latency: Record<string, HistogramSnapshot>;
  /** `route\tcause` → count */
  unauthorized: Record<string, number>;
  /** `route\tcause` → count */
  rateLimited: Record<string, number>;
  memory: { rss: number; heapUsed: number; heapTotal: number };
  startedAt: number;
}

/** Templates no declared route matched are counted together, so that a scanner's paths make no series. */
export const UNMATCHED_ROUTE = "(unmatched)";
/** A refusal whose cause is not one of the guard's reason words. */
const CAUSE = /^[A-Z][A-Z_]{0,39}$/;

export interface RequestObservation {
  route: string;
  method: string;
  status: number;
  seconds: number;
  /** The guard's reason (MISSING, NOT_FOUND, ...) or the error code, for a 401 or 429. */
  cause?: string;
}

export function createMetricsRegistry(worker: number, now: () => number = Date.now) {
  const routes = new Map<string, RouteSeries>();
  const unauthorized = new Map<string, number>();
  const rateLimited = new Map<string, number>();
  const startedAt = now();

  const seriesOf = (route: string): RouteSeries => {
    let series = routes.get(route);
    if (series === undefined) {
      series = { requests: new Map(), buckets: new Array(LATENCY_BUCKETS_SECONDS.length + 1).fill(0), sumSeconds: 0, count: 0 };
      routes.set(route, series);
    }
    return series;
  };

  return {
    /** Called once per answered request. */
    record({ route, method, status, seconds, cause }: RequestObservation): void {
      const series = seriesOf(route);
      const key = methodIndex(method) * 1000 + status;
      series.requests.set(key, (series.requests.get(key) ?? 0) + 1);
      let bucket = 0;
      while (bucket < LATENCY_BUCKETS_SECONDS.length && seconds > LATENCY_BUCKETS_SECONDS[bucket]!) bucket++;
      series.buckets[bucket]!++;
      series.sumSeconds += seconds;
      series.count++;
      if (status === 401 || status === 429) {
        const label = `${route}\t${cause !== undefined && CAUSE.test(cause) ? cause : "OTHER"}`;
        const counts = status === 401 ? unauthorized : rateLimited;
        counts.set(label, (counts.get(label) ?? 0) + 1);
      }
    },
    snapshot(): MetricsSnapshot {
      const requests: MetricsSnapshot["requests"] = {};
      const latency: MetricsSnapshot["latency"] = {};
      for (const [route, series] of routes) {
        const byStatus: Record<string, number> = {};
        for (const [key, count] of series.requests) byStatus[`${METHOD_NAMES[Math.floor(key / 1000)]} ${key % 1000}`] = count;
        requests[route] = byStatus;
        latency[route] = { buckets: [...series.buckets], sum: series.sumSeconds, count: series.count };
      }
      const memory = process.memoryUsage();
      return {
        worker,
        requests,
        latency,
        unauthorized: Object.fromEntries(unauthorized),
        rateLimited: Object.fromEntries(rateLimited),
        memory: { rss: memory.rss, heapUsed: memory.heapUsed, heapTotal: memory.heapTotal },
        startedAt,
      };
    },
  };
}
