/**
 * E-mail addresses: the WHATWG "valid e-mail address" grammar (what `<input type=email>` accepts), ASCII
 * only, so no control characters and no look-alike twins ("аlice" in Cyrillic beside "alice"). Stored
 * trimmed and lower-cased: one account per mailbox, however it is typed.
 */
export const EMAIL_MAX_LENGTH = 254;
const EMAIL_LOCAL_PART_MAX_LENGTH = 64;

const WHATWG_EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/**
 * The stored form of an e-mail address, or undefined when it is not a valid one. Checked before
 * lower-casing: some non-ASCII letters lower-case to ASCII (the Kelvin sign to `k`), which would let a
 * look-alike reach another account's address.
 */
export function parseEmail(raw: string): string | undefined {
  const email = raw.trim();
  if (email.length > EMAIL_MAX_LENGTH || !WHATWG_EMAIL.test(email)) return undefined;
  if (email.indexOf("@") > EMAIL_LOCAL_PART_MAX_LENGTH) return undefined;
  return email.toLowerCase();
}
