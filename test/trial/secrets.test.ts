import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { trialSecrets } from "../../src/trial/service";
import { openTestState, type TestState } from "../helpers/test-backend";

/**
 * The trial's secrets are read at their first use, not when the app is built (design §18): a start reads
 * no secret and writes none; the first trial request or challenge generates and keeps it.
 */
let state: TestState | undefined;
let dir: string | undefined;
const open = async () => {
  dir = mkdtempSync(join(tmpdir(), "foodapi-trial-secrets-"));
  state = await openTestState(dir);
  return state;
};
afterEach(async () => {
  await state?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  state = dir = undefined;
});

describe("trialSecrets", () => {
  test("reads nothing until asked, then generates the secret once, keeps it and answers from memory", async () => {
    const { stores, count, rows } = await open();
    const secrets = trialSecrets(stores.trial, { trialSecret: undefined });
    expect(await count("secrets")).toBe(0);
    const first = await secrets();
    expect(first.token).toMatch(/^[0-9a-f]{64}$/);
    expect(await rows("SELECT value FROM secrets WHERE name = ?", "trial-token")).toEqual([{ value: first.token }]);
    // From then on the same secrets, at once (no promise) on every backend.
    expect(secrets()).toBe(first);
    // A process started later reads the one kept, whichever backend.
    expect((await trialSecrets(stores.trial, { trialSecret: undefined })()).token).toBe(first.token);
    expect(first.challenge).toMatch(/^[0-9a-f]{64}$/);
    expect(first.challenge).not.toBe(first.token);
  });

  test("with FOODAPI_TRIAL_SECRET set the store is never asked", async () => {
    const { stores, count } = await open();
    const secrets = trialSecrets(stores.trial, { trialSecret: "operator-secret" });
    expect((await secrets()).token).toBe("operator-secret");
    expect(await count("secrets")).toBe(0);
  });

  test("a read that fails is tried again by the next use", async () => {
    const { stores, count, refuseWrites, allowWrites } = await open();
    const secrets = trialSecrets(stores.trial, { trialSecret: undefined });
    await refuseWrites();
    await expect(Promise.resolve().then(() => secrets())).rejects.toThrow();
    await allowWrites();
    expect((await secrets()).token).toMatch(/^[0-9a-f]{64}$/);
    expect(await count("secrets")).toBe(1);
  });
});
