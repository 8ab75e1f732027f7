/**
 * The argon2 binding is a native addon: loading it writes it out of the binary to a temporary file and
 * links it (milliseconds), so it is loaded at the first password hashed or checked, not at every start.
 */
let argon2: Promise<typeof import("@node-rs/argon2")> | undefined;
const loadArgon2 = () => (argon2 ??= import("@node-rs/argon2"));

/** argon2id at OWASP's minimum: 19 MiB, 2 passes, 1 lane (the package's default algorithm is argon2id). */
const ARGON2ID = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export function hashPassword(password: string): Promise<string> {
  return loadArgon2().then(({ hash }) => hash(password, ARGON2ID));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  // Outside the try: an addon that cannot load (a TMPDIR mounted noexec) is an error, not a wrong password.
  const { verify } = await loadArgon2();
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * Loads the binding now: serve calls it once it listens, so that a host where it cannot load (a TMPDIR
 * mounted noexec) is named at start, not at the first sign-in. Rejects with the loader's error.
 */
export async function loadPasswordHashing(): Promise<void> {
  await loadArgon2();
}

let dummyHash: Promise<string> | undefined;

/**
 * Sign-in with an unknown e-mail (or an account without a password) verifies against this hash, so that
 * the answer takes as long as a wrong password does and timing does not reveal which e-mails exist.
 */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword("not-a-real-password-only-for-equal-timing");
  return dummyHash;
}
