/** E-mail addresses are stored trimmed and lower-cased: one account per mailbox, however it is typed. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const EMAIL_MAX_LENGTH = 254;

/** A deliberately plain check: one @, something on each side, a dot in the domain, no spaces. */
export function isValidEmail(email: string): boolean {
  return email.length <= EMAIL_MAX_LENGTH && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
}
