import { apiError } from "./errors";
import type { Clock } from "../platform/clock";
import { codePointLength, parseName } from "../platform/security/text";
import { parseEmail } from "./email";
import { type SessionJson, type SignInBody, type SignUpBody, USER_NAME_MAX_LENGTH, type UserJson } from "./model";
import { type PasswordCheckDeps, signInFailureBucket, verifyAccountPassword } from "./password-check";
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./passwords";
import { newId } from "../platform/security/tokens";
import type { AccountStore, Session, User } from "./store";


/**
 * Validates a sign-up and creates the account; the store settles a race for the e-mail. `firstSession`
 * (the caller is signed in) is written with the account, atomically.
 */
export async function signUp(accounts: AccountStore, clock: Clock, body: SignUpBody, firstSession?: (userId: string) => Session): Promise<User> {
  const email = parseEmail(body.email);
  if (email === undefined) throw apiError("INVALID_EMAIL");
  checkNewPassword(body.password);
  const checked = parseName(body.name, USER_NAME_MAX_LENGTH);
  if (!checked.ok) throw apiError("VALIDATION_ERROR", "name", checked.problem);
  const name = checked.name;

  const taken = () => apiError("USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL");
  // Cheap early answer; the insert below is what decides when two sign-ups race.
  if (await accounts.findByEmail(email)) throw taken();
  const passwordHash = await hashPassword(body.password);
  const user = newUser({ email, name, passwordHash, now: clock() });
  if (!(await accounts.insert(user, firstSession?.(user.id)))) throw taken();
  return user;
}

/** A password a user chooses (sign-up, change-password) meets the length rules, or this throws their error. */
export function checkNewPassword(password: string): void {
  // Passwords are counted as given (never trimmed or normalised: they are secrets, not display text).
  const passwordLength = codePointLength(password);
  if (passwordLength < PASSWORD_MIN_LENGTH) throw apiError("PASSWORD_TOO_SHORT");
  if (passwordLength > PASSWORD_MAX_LENGTH) throw apiError("PASSWORD_TOO_LONG");
}

function newUser({ email, name, passwordHash, now }: { email: string; name: string; passwordHash: string | null; now: number }): User {
  return { id: newId("usr"), email, name, emailVerified: false, image: null, passwordHash, createdAt: now, updatedAt: now, disabledAt: null };
}

/**
 * The account of an e-mail address, created without a password if there is none (`foodapi keys create`
 * and the tests issue keys this way). Two callers racing to create it both get the one the UNIQUE
 * constraint kept.
 */
export async function findOrCreatePasswordlessAccount(accounts: AccountStore, email: string, now: number): Promise<User> {
  return (
    (await accounts.findByEmail(email)) ??
    (await accounts.insert(newUser({ email, name: email.split("@")[0]!, passwordHash: null, now }))) ??
    (await accounts.findByEmail(email))!
  );
}

/**
 * Unknown e-mail and wrong password are one answer, after the same argon2 work and counted alike against
 * the address's failure limit (password-check.ts); a disabled account is 403.
 */
export async function signIn(deps: PasswordCheckDeps & { accounts: AccountStore }, body: SignInBody): Promise<User> {
  const email = parseEmail(body.email);
  const user = email === undefined ? undefined : await deps.accounts.findByEmail(email);
  const valid = await verifyAccountPassword(deps, email === undefined ? undefined : signInFailureBucket(email), user?.passwordHash, body.password);
  if (!user || !valid) throw apiError("INVALID_EMAIL_OR_PASSWORD");
  // Only to the holder of the password, as Better Auth's admin plugin has it: nobody else learns of the ban.
  if (user.disabledAt !== null) throw apiError("BANNED_USER");
  return user;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function toUserJson(user: User): UserJson {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    emailVerified: user.emailVerified,
    image: user.image,
    createdAt: iso(user.createdAt),
    updatedAt: iso(user.updatedAt),
  };
}

export function toSessionJson(session: Session): SessionJson {
  return {
    id: session.id,
    userId: session.userId,
    expiresAt: iso(session.expiresAt),
    createdAt: iso(session.createdAt),
    updatedAt: iso(session.updatedAt),
  };
}
