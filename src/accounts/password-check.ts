import type { RateSpec } from "../platform/config/config";
import { tooManyRequests } from "./errors";
import type { Limiter } from "../limits/limiter";
import { sha256Hex } from "../platform/security/tokens";
import { dummyPasswordHash, verifyPassword } from "./passwords";

/**
 * The one password check of the service. Sign-in, change-password and delete-user verify through here (and
 * so must any later route that takes a password), which limits wrong passwords per account, from any
 * client IP (`--password-failure-limit`), on top of the per-IP limit those routes run under (`--auth-limit`).
 *
 * Two counts per account, apart both ways, under the one limit: sign-in's, which anyone who knows the
 * address can fill, and that of the routes behind the account's session, which only a session of it can.
 * Shared, ten anonymous wrong sign-ins would also keep the signed-in owner from changing the password
 * (the way out of a leak); apart, a stolen session's guesses stay limited without locking the owner out of
 * signing in.
 */
export interface PasswordCheckDeps {
  limiter: Limiter;
  config: { readonly passwordFailureLimit: RateSpec };
}

/**
 * Sign-in's failure counter for an e-mail address (as stored: normalised). The e-mail, never the user id:
 * sign-in counts addresses without an account alike. Hashed, so that no counter names an address.
 */
export function signInFailureBucket(email: string): string {
  return `password-failures:${sha256Hex(email)}`;
}

/** The failure counter of the routes that take the password of the account their session is of. */
export function sessionFailureBucket(userId: string): string {
  return `session-password-failures:${userId}`;
}

/** Every failure counter of an account, for those who forget them (a deletion, the operator's reset). */
export const passwordFailureBuckets = (user: { id: string; email: string }) => [signInFailureBucket(user.email), sessionFailureBucket(user.id)];

/**
 * True when `password` is the one of the account with `passwordHash`, counting a wrong one in `bucket`
 * (signInFailureBucket or sessionFailureBucket). An address without an account, or an account without a
 * password, is checked against the dummy hash and counted all the same, so that neither the time taken
 * nor the 429 tells whether it exists. `bucket` undefined (sign-in with what is not an e-mail address: no
 * account can have it) is checked the same way, without a counter.
 *
 * Past the limit the answer is 429 with Retry-After, before any hash is computed. Each attempt is counted
 * before its hash, so that parallel attempts cannot overrun the limit, and given back when the password was
 * right: only wrong passwords count.
 */
export async function verifyAccountPassword(
  deps: PasswordCheckDeps,
  bucket: string | undefined,
  passwordHash: string | null | undefined,
  password: string,
): Promise<boolean> {
  const counted = bucket === undefined ? undefined : await deps.limiter.consume(bucket, deps.config.passwordFailureLimit);
  if (counted && !counted.allowed) throw tooManyRequests("PASSWORD_ATTEMPTS_LIMITED", counted.retryAfterSeconds);
  const matches = await verifyPassword(passwordHash || (await dummyPasswordHash()), password);
  const valid = matches && Boolean(passwordHash);
  if (valid && bucket !== undefined && counted) await deps.limiter.giveBack(bucket, counted);
  return valid;
}

/** The limit in words, for the route descriptions: "10 wrong passwords in 15 minutes". */
export function passwordFailureLimitInWords(spec: RateSpec): string {
  const [count, unit] =
    spec.windowSeconds % 3600 === 0 ? [spec.windowSeconds / 3600, "hour"] : spec.windowSeconds % 60 === 0 ? [spec.windowSeconds / 60, "minute"] : [spec.windowSeconds, "second"];
  return `${spec.limit} wrong password${spec.limit === 1 ? "" : "s"} in ${count === 1 ? `a ${unit}` : `${count} ${unit}s`}`;
}
