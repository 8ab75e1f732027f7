import { LATENCY_BUCKETS_SECONDS, type MetricsSnapshot } from "./registry";

/** The Prometheus text format's content type (version 0.0.4, what every scraper reads). */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** The route whose 201s are trial tokens issued. */
const TRIAL_TOKEN_ROUTE = "/v1/trial-token";

/** Read at scrape time from the state store: the same whichever process answers. */
export interface StateGauges {
  accounts: number;
  activeKeys: number;
}

/**
 * The whole server's metrics in the Prometheus text format: the snapshots of every process (workers'
 * counters summed; memory per worker), and the state's gauges.
 */
export function renderMetrics(snapshots: readonly MetricsSnapshot[], state: StateGauges): string {
  const out: string[] = [];
  const family = (name: string, type: string, help: string) => out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
  const sample = (name: string, labels: Record<string, string>, value: number) => out.push(`${name}${labelText(labels)} ${formatNumber(value)}`);

  const requests = new Map<string, number>();
  const histograms = new Map<string, { buckets: number[]; sum: number; count: number }>();
  const unauthorized = new Map<string, number>();
  const rateLimited = new Map<string, number>();
  for (const snapshot of snapshots) {
    for (const [route, byStatus] of Object.entries(snapshot.requests)) {
      for (const [methodStatus, count] of Object.entries(byStatus)) add(requests, `${route}\t${methodStatus}`, count);
    }
    for (const [route, histogram] of Object.entries(snapshot.latency)) {
      const merged = histograms.get(route) ?? { buckets: new Array(LATENCY_BUCKETS_SECONDS.length + 1).fill(0), sum: 0, count: 0 };
      histogram.buckets.forEach((count, i) => (merged.buckets[i]! += count));
      merged.sum += histogram.sum;
      merged.count += histogram.count;
      histograms.set(route, merged);
    }
    for (const [label, count] of Object.entries(snapshot.unauthorized)) add(unauthorized, label, count);
    for (const [label, count] of Object.entries(snapshot.rateLimited)) add(rateLimited, label, count);
  }

  family("foodapi_http_requests_total", "counter", "Requests answered, by route template, method and status.");
  let trialTokens = 0;
  for (const [key, count] of sorted(requests)) {
    const [route, methodStatus] = key.split("\t") as [string, string];
    const [method, status] = methodStatus.split(" ") as [string, string];
    sample("foodapi_http_requests_total", { route, method, status }, count);
    if (route === TRIAL_TOKEN_ROUTE && method === "POST" && status === "201") trialTokens += count;
  }

  family("foodapi_http_request_duration_seconds", "histogram", "Time from reading a request to its answer, by route template.");
  for (const [route, histogram] of sorted(histograms)) {
    let cumulative = 0;
    LATENCY_BUCKETS_SECONDS.forEach((bound, i) => {
      cumulative += histogram.buckets[i]!;
      sample("foodapi_http_request_duration_seconds_bucket", { route, le: String(bound) }, cumulative);
    });
    sample("foodapi_http_request_duration_seconds_bucket", { route, le: "+Inf" }, histogram.count);
    sample("foodapi_http_request_duration_seconds_sum", { route }, histogram.sum);
    sample("foodapi_http_request_duration_seconds_count", { route }, histogram.count);
  }

  family("foodapi_unauthorized_total", "counter", "401 answers, by route template and cause (the credential guard's reason, or the error code).");
  for (const [key, count] of sorted(unauthorized)) {
    const [route, cause] = key.split("\t") as [string, string];
    sample("foodapi_unauthorized_total", { route, cause }, count);
  }
  family("foodapi_rate_limited_total", "counter", "429 answers, by route template and cause (the error code).");
  for (const [key, count] of sorted(rateLimited)) {
    const [route, cause] = key.split("\t") as [string, string];
    sample("foodapi_rate_limited_total", { route, cause }, count);
  }

  family("foodapi_trial_tokens_issued_total", "counter", "Trial tokens issued (201 answers of POST /v1/trial-token).");
  sample("foodapi_trial_tokens_issued_total", {}, trialTokens);
  family("foodapi_accounts", "gauge", "Accounts in the state store.");
  sample("foodapi_accounts", {}, state.accounts);
  family("foodapi_active_keys", "gauge", "API keys not revoked, in the state store.");
  sample("foodapi_active_keys", {}, state.activeKeys);

  family("foodapi_workers", "gauge", "Server processes whose counters this scrape includes.");
  sample("foodapi_workers", {}, snapshots.length);
  const byWorker = [...snapshots].sort((a, b) => a.worker - b.worker);
  family("foodapi_process_resident_memory_bytes", "gauge", "Resident memory of each server process.");
  for (const s of byWorker) sample("foodapi_process_resident_memory_bytes", { worker: String(s.worker) }, s.memory.rss);
  family("foodapi_process_heap_used_bytes", "gauge", "JavaScript heap in use in each server process.");
  for (const s of byWorker) sample("foodapi_process_heap_used_bytes", { worker: String(s.worker) }, s.memory.heapUsed);
  family("foodapi_process_start_time_seconds", "gauge", "When each server process started (a worker restarted starts its counters again).");
  for (const s of byWorker) sample("foodapi_process_start_time_seconds", { worker: String(s.worker) }, s.startedAt / 1000);
  return `${out.join("\n")}\n`;
}

function add(map: Map<string, number>, key: string, count: number): void {
  map.set(key, (map.get(key) ?? 0) + count);
}

function sorted<V>(map: Map<string, V>): [string, V][] {
  return [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function labelText(labels: Record<string, string>): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return "";
  return `{${entries.map(([name, value]) => `${name}="${escapeLabel(value)}"`).join(",")}}`;
}

/** The text format's escapes for a label value: backslash, double quote, line feed. */
function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

function formatNumber(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "+Inf" : "-Inf";
  return String(value);
}
