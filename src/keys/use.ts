import type { MaybePromise } from "../platform/maybe-promise";
import type { KeyUsage } from "./model";

/**
 * A key's use, which the usage capability counts and keeps (usage/ refers to keys, not the other way): the
 * key credential and routes see it only as this, wired in src/app/app.ts.
 */
export interface KeyUse {
  /** One request of the key: admitted (`allowed`) or refused with 429 (usage/recorder.ts). */
  count(keyId: string, allowed: boolean): void;
  /** Its requests per hour over the hours shown (usage/service.ts `keyUsage`). */
  hourly(keyId: string, now: number): MaybePromise<typeof KeyUsage.static>;
  /** How many hours are shown, up to the current one. */
  readonly hours: number;
}
