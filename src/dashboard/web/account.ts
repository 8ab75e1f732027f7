import { callApi, refusedFields } from "./api";
import type { User } from "./account-panel";
import { byId, onSubmit } from "./dom";
import { messageArea } from "./messages";

/** Sign-up, sign-in and sign-out against /api/auth/*; the session itself lives in the HttpOnly cookie. */
export function setupAccount(events: { onSignedIn(user: User): void; onSignedOut(): void }) {
  // What concerns the account as a whole (signed in or out, a session ended) is said under its heading.
  const messages = messageArea("account", byId("account-title"), "after");
  let isSignedIn = false;
  const signedIn = (user: User) => {
    isSignedIn = true;
    byId("account-loading").hidden = true;
    byId("signed-out").hidden = true;
    byId("signed-in").hidden = false;
    byId("user-email").textContent = user.email;
    events.onSignedIn(user);
  };
  const signedOut = () => {
    isSignedIn = false;
    byId("account-loading").hidden = true;
    byId("signed-in").hidden = true;
    byId("signed-out").hidden = false;
    events.onSignedOut();
  };

  const submitTo = (formId: string, name: string, path: string, verb: string) => {
    const form = byId<HTMLFormElement>(formId);
    const formMessages = messageArea(name, form);
    onSubmit(form, async (data) => {
      const body = Object.fromEntries([...data.entries()].map(([field, value]) => [field, String(value)]));
      const result = await callApi<{ user: User }>("POST", path, { body });
      if (!result.ok) return formMessages.fail(`${verb} failed: ${result.message}`, refusedFields(form, result));
      form.reset();
      signedIn(result.data.user);
      messages.say(`${verb} done: signed in as ${result.data.user.email}.`);
      // The next thing to do once signed in: name and issue a key.
      byId("key-name").focus();
    });
  };
  submitTo("sign-in-form", "sign-in", "/api/auth/sign-in/email", "Sign-in");
  submitTo("sign-up-form", "sign-up", "/api/auth/sign-up/email", "Sign-up");

  byId("sign-out").addEventListener("click", async () => {
    const result = await callApi("POST", "/api/auth/sign-out", { body: {} });
    if (!result.ok) return messages.fail(`Sign-out failed: ${result.message}`);
    signedOut();
    messages.say("Signed out.");
    byId("sign-in-email").focus();
  });

  return {
    /**
     * The session ended elsewhere (another device, an expiry) or the account was deleted here. Not news
     * once signed out: a request sent while signed in (the key list, the session list) may come back 401
     * after the user signed out, and must not cover what the page says since.
     */
    showSignedOut(message: string, isError: boolean) {
      if (!isSignedIn) return;
      signedOut();
      if (isError) messages.fail(message);
      else messages.say(message);
      byId("sign-in-email").focus();
    },
    async load() {
      const result = await callApi<{ user: User } | null>("GET", "/api/auth/get-session");
      if (!result.ok) {
        messages.fail(`Could not check your session: ${result.message}`);
        return signedOut();
      }
      if (result.data) signedIn(result.data.user);
      else signedOut();
    },
  };
}
