import type { AccessLogEntry } from "./server";

/**
 * Access-log lines are collected and written in batches: one write per few milliseconds instead of one
 * per request. `flush` writes what is pending (on shutdown, nothing is lost).
 */
export function createAccessLog(write: (text: string) => void, options: { maxLines?: number; maxDelayMs?: number } = {}) {
  const { maxLines = 512, maxDelayMs = 20 } = options;
  let pending: string[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const text = pending.join("");
    pending = [];
    write(text);
  };

  return {
    log(entry: AccessLogEntry): void {
      pending.push(`${JSON.stringify(entry)}\n`);
      if (pending.length >= maxLines) flush();
      else timer ??= setTimeout(flush, maxDelayMs);
    },
    flush,
  };
}
