/** A key's usage as `GET /v1/keys/{id}/usage` answers it, and the hours the chart shows. No DOM here. */

export interface HourUsage {
  /** The hour's start, `2026-11-22T13:00:00Z`. */
  hour: string;
  allowed: number;
  refused: number;
}

/** One bar's place: every hour of the window, those without requests at zero. */
export interface HourSlot {
  start: number;
  usage: HourUsage | undefined;
}

/** The server's window (design §12): the current hour and the 167 before it. */
export const USAGE_HOURS = 7 * 24;
export const HOUR_MS = 3600_000;

const hourOf = (ms: number) => ms - (((ms % HOUR_MS) + HOUR_MS) % HOUR_MS);

/**
 * The 168 hours ending with the current one, oldest first, each with its usage if it had requests. The
 * window ends at the later of this browser's hour and the newest hour answered, so a browser clock that
 * runs behind the server's still shows every hour the server sent.
 */
export function hourSlots(items: readonly HourUsage[], nowMs: number): HourSlot[] {
  const byStart = new Map(items.map((item) => [Date.parse(item.hour), item]));
  const newest = Math.max(hourOf(nowMs), ...byStart.keys());
  const first = newest - (USAGE_HOURS - 1) * HOUR_MS;
  return Array.from({ length: USAGE_HOURS }, (_, i) => {
    const start = first + i * HOUR_MS;
    return { start, usage: byStart.get(start) };
  });
}

export function usageTotals(items: readonly HourUsage[]): { allowed: number; refused: number } {
  let allowed = 0;
  let refused = 0;
  for (const item of items) {
    allowed += item.allowed;
    refused += item.refused;
  }
  return { allowed, refused };
}

/** A round top for the scale (1, 2 or 5 times a power of ten) at or above the busiest hour. */
export function scaleTop(busiest: number): number {
  if (busiest <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(busiest));
  for (const step of [1, 2, 5, 10]) if (step * power >= busiest) return step * power;
  return 10 * power;
}

/**
 * The scale's labelled values, 0 to `top` (a `scaleTop`): whole requests only, so the middle of a top of
 * 5 is not "2.5". Halves where they are whole, else every request (a top of 5: 0 to 5, six lines).
 */
export function scaleTicks(top: number): number[] {
  const step = Number.isInteger(top / 2) ? top / 2 : top <= 5 ? 1 : top;
  return Array.from({ length: top / step + 1 }, (_, i) => i * step);
}
