import { callApi } from "./api";
import { announce, byId, el, formatDate, onSubmit, reportError } from "./dom";

interface ListedKey {
  id: string;
  name: string;
  keyPrefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** The signed-in account's keys: issue (plaintext shown once), list, revoke after a confirmation. */
export function setupKeys(events: { onUseKey(key: string): void }) {
  const panel = byId("keys");
  const newKey = byId("new-key");
  const newKeyValue = byId<HTMLInputElement>("new-key-value");
  const dialog = byId<HTMLDialogElement>("revoke-dialog");
  let pendingRevoke: ListedKey | undefined;

  const forgetNewKey = () => {
    newKeyValue.value = "";
    newKey.hidden = true;
  };

  const load = async () => {
    const result = await callApi<{ items: ListedKey[] }>("GET", "/v1/keys");
    if (!result.ok) return reportError(`Could not list your keys: ${result.message}`);
    const rows = result.data.items.map((key) => {
      const revoke = el("button", "Revoke", { type: "button", class: "danger", "aria-label": `Revoke key ${key.name}` });
      revoke.addEventListener("click", () => {
        pendingRevoke = key;
        byId("revoke-text").textContent = `“${key.name}” (${key.keyPrefix}…) stops working at once, for every program that uses it.`;
        dialog.returnValue = "";
        dialog.showModal();
      });
      const row = el("tr");
      const prefix = el("td");
      prefix.append(el("code", `${key.keyPrefix}…`));
      const actions = el("td");
      actions.append(revoke);
      row.append(el("td", key.name), prefix, el("td", formatDate(key.createdAt)), el("td", formatDate(key.lastUsedAt)), actions);
      return row;
    });
    byId("key-rows").replaceChildren(...rows);
    byId("no-keys").hidden = rows.length > 0;
  };

  const issueForm = byId<HTMLFormElement>("issue-key-form");
  onSubmit(issueForm, async (data) => {
    const result = await callApi<{ name: string; key: string }>("POST", "/v1/keys", { body: { name: String(data.get("name") ?? "") } });
    if (!result.ok) return reportError(`Could not issue the key: ${result.message}`);
    issueForm.reset();
    newKeyValue.value = result.data.key;
    newKey.hidden = false;
    announce(`Key “${result.data.name}” issued. Copy it now: you will not see it again.`);
    byId("copy-key").focus();
    await load();
  });

  byId("copy-key").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(newKeyValue.value);
      announce("Key copied to the clipboard.");
    } catch {
      // Clipboard access can be refused: leave the key selected for Ctrl+C instead.
      newKeyValue.select();
      announce("The key is selected: copy it with Ctrl+C (⌘C on a Mac).");
    }
  });
  byId("use-key").addEventListener("click", () => events.onUseKey(newKeyValue.value));
  byId("dismiss-key").addEventListener("click", () => {
    forgetNewKey();
    byId("key-name").focus();
  });

  dialog.addEventListener("close", async () => {
    const key = pendingRevoke;
    pendingRevoke = undefined;
    if (dialog.returnValue !== "revoke" || !key) return;
    const result = await callApi("DELETE", `/v1/keys/${encodeURIComponent(key.id)}`);
    if (!result.ok) return reportError(`Could not revoke “${key.name}”: ${result.message}`);
    announce(`Key “${key.name}” revoked.`);
    await load();
    byId("key-name").focus();
  });

  return {
    async show() {
      panel.hidden = false;
      await load();
    },
    hide() {
      panel.hidden = true;
      forgetNewKey();
      byId("key-rows").replaceChildren();
    },
  };
}
