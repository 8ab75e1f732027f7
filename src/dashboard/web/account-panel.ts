import { callApi } from "./api";
import { announce, byId, onSubmit, reportError } from "./dom";
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
  const deleteError = byId("delete-error");
  const deleteButton = byId<HTMLButtonElement>("delete-account");
  let user: User | undefined;

  const refused = (what: string, result: { status: number; message: string }) => {
    if (result.status === 401) return events.onSessionEnded();
    reportError(`${what}: ${result.message}`);
  };

  const nameInput = byId<HTMLInputElement>("account-name");
  onSubmit(byId<HTMLFormElement>("name-form"), async (data) => {
    const name = String(data.get("name") ?? "");
    const result = await callApi<{ status: boolean }>("POST", "/api/auth/update-user", { body: { name } });
    if (!result.ok) return refused("Could not change your name", result);
    if (user) user.name = name.trim();
    nameInput.value = name.trim();
    announce("Your name is saved.");
  });

  const passwordForm = byId<HTMLFormElement>("password-form");
  onSubmit(passwordForm, async (data) => {
    const revokeOtherSessions = data.get("revokeOtherSessions") === "on";
    const result = await callApi<{ token: string | null }>("POST", "/api/auth/change-password", {
      body: { currentPassword: String(data.get("currentPassword") ?? ""), newPassword: String(data.get("newPassword") ?? ""), revokeOtherSessions },
    });
    if (!result.ok) {
      refused("Could not change your password", result);
      if (result.code === "INVALID_PASSWORD") byId("current-password").focus();
      return;
    }
    passwordForm.reset();
    // With the other devices signed out, this browser carries on with the fresh session the answer set.
    await sessions.load();
    announce(revokeOtherSessions ? "Password changed. Your other devices are signed out." : "Password changed.");
  });

  const phrase = () => user?.email ?? "";
  deleteButton.addEventListener("click", () => {
    deleteForm.reset();
    deleteError.textContent = "";
    byId("delete-phrase").textContent = phrase();
    deleteDialog.showModal();
  });
  byId("delete-cancel").addEventListener("click", () => deleteDialog.close());
  // Escape, Cancel or done: focus goes back where the dialog was opened from (if the account still exists).
  deleteDialog.addEventListener("close", () => {
    deleteForm.reset();
    deleteError.textContent = "";
    if (!panel.hidden) deleteButton.focus();
  });
  onSubmit(deleteForm, async (data) => {
    // Inside the modal dialog the page's own message regions are inert: errors are said in the dialog.
    const confirmation = String(data.get("confirm") ?? "").trim().toLowerCase();
    if (confirmation !== phrase().toLowerCase()) {
      deleteError.textContent = `Type your e-mail address, ${phrase()}, to confirm.`;
      byId("delete-confirm").focus();
      return;
    }
    const result = await callApi("POST", "/api/auth/delete-user", { body: { password: String(data.get("password") ?? "") } });
    if (!result.ok) {
      if (result.status === 401) {
        deleteDialog.close();
        return events.onSessionEnded();
      }
      deleteError.textContent = `Could not delete the account: ${result.message}`;
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
