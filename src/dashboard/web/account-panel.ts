import { callApi, refusedFields } from "./api";
import { byId, onSubmit } from "./dom";
import { type MessageArea, messageArea } from "./messages";
import { setupSessions } from "./sessions";

export interface User {
  email: string;
  name: string;
}

/**
 * "Account settings" for the signed-in user (design §13): the name, a password change that can sign
 * out the other devices, where the account is signed in, and deletion behind the password and a typed
 * confirmation (the account's e-mail address).
 */
export function setupAccountPanel(events: { onSessionEnded(): void; onDeleted(): void }) {
  const panel = byId("account-settings");
  const sessions = setupSessions(events);
  const deleteDialog = byId<HTMLDialogElement>("delete-dialog");
  const deleteForm = byId<HTMLFormElement>("delete-form");
  // Inside the modal dialog the page is inert and its messages hidden: the dialog says its own.
  const deleteMessages = messageArea("delete", byId("delete-actions"), "before");
  const deleteButton = byId<HTMLButtonElement>("delete-account");
  let user: User | undefined;

  /** A refusal, said in the form that was sent; a session that ended meanwhile shows the sign-in form. */
  const refused = (form: HTMLFormElement, messages: MessageArea, what: string, result: { status: number; code: string; message: string }) => {
    if (result.status === 401) return events.onSessionEnded();
    messages.fail(`${what}: ${result.message}`, refusedFields(form, result));
  };

  const nameInput = byId<HTMLInputElement>("account-name");
  const nameForm = byId<HTMLFormElement>("name-form");
  const nameMessages = messageArea("name", nameForm);
  onSubmit(nameForm, async (data) => {
    const name = String(data.get("name") ?? "");
    const result = await callApi<{ status: boolean }>("POST", "/api/auth/update-user", { body: { name } });
    if (!result.ok) return refused(nameForm, nameMessages, "Could not change your name", result);
    if (user) user.name = name.trim();
    nameInput.value = name.trim();
    nameMessages.say("Your name is saved.");
  });

  const passwordForm = byId<HTMLFormElement>("password-form");
  const passwordMessages = messageArea("password", passwordForm);
  onSubmit(passwordForm, async (data) => {
    const revokeOtherSessions = data.get("revokeOtherSessions") === "on";
    const result = await callApi<{ token: string | null }>("POST", "/api/auth/change-password", {
      body: { currentPassword: String(data.get("currentPassword") ?? ""), newPassword: String(data.get("newPassword") ?? ""), revokeOtherSessions },
    });
    if (!result.ok) {
      refused(passwordForm, passwordMessages, "Could not change your password", result);
      if (result.code === "INVALID_PASSWORD") byId("current-password").focus();
      return;
    }
    passwordForm.reset();
    // With the other devices signed out, this browser carries on with the fresh session the answer set.
    await sessions.load();
    passwordMessages.say(revokeOtherSessions ? "Password changed. Your other devices are signed out." : "Password changed.");
  });

  const phrase = () => user?.email ?? "";
  deleteButton.addEventListener("click", () => {
    deleteForm.reset();
    deleteMessages.clear();
    byId("delete-phrase").textContent = phrase();
    deleteDialog.showModal();
  });
  byId("delete-cancel").addEventListener("click", () => deleteDialog.close());
  // Escape, Cancel or done: focus goes back where the dialog was opened from (if the account still exists).
  deleteDialog.addEventListener("close", () => {
    deleteForm.reset();
    deleteMessages.clear();
    if (!panel.hidden) deleteButton.focus();
  });
  onSubmit(deleteForm, async (data) => {
    const confirmation = String(data.get("confirm") ?? "").trim().toLowerCase();
    if (confirmation !== phrase().toLowerCase()) {
      deleteMessages.fail(`Type your e-mail address, ${phrase()}, to confirm.`, [byId("delete-confirm")]);
      byId("delete-confirm").focus();
      return;
    }
    const result = await callApi("POST", "/api/auth/delete-user", { body: { password: String(data.get("password") ?? "") } });
    if (!result.ok) {
      if (result.status === 401) {
        deleteDialog.close();
        return events.onSessionEnded();
      }
      deleteMessages.fail(`Could not delete the account: ${result.message}`, refusedFields(deleteForm, result));
      byId("delete-password").focus();
      return;
    }
    panel.hidden = true;
    deleteDialog.close();
    events.onDeleted();
  });

  return {
    show(signedIn: User) {
      user = { ...signedIn };
      nameInput.value = signedIn.name;
      panel.hidden = false;
      void sessions.load();
    },
    hide() {
      user = undefined;
      panel.hidden = true;
      if (deleteDialog.open) deleteDialog.close();
      passwordForm.reset();
      nameInput.value = "";
      sessions.clear();
    },
  };
}
