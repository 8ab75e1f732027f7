import { callApi, refusedFields } from "./api";
import { byId, el, formatDate, onSubmit } from "./dom";
import { type MessageArea, messageArea } from "./messages";
import { renderUsage } from "./usage-chart";
import type { HourUsage } from "./usage-hours";

interface ListedKey {
  id: string;
  name: string;
  keyPrefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** A key's row and what hangs off it: its "Last used" cell, its usage row and chart once opened. */
interface KeyRow {
  key: ListedKey;
  row: HTMLTableRowElement;
  nameCell: HTMLTableCellElement;
  lastUsed: HTMLTableCellElement;
  rename: HTMLButtonElement;
  usageButton: HTMLButtonElement;
  revoke: HTMLButtonElement;
  usageRow: HTMLTableRowElement;
  usage: HTMLElement;
  /** Under the usage, beside its "Refresh usage" button. */
  usageMessages: MessageArea;
  chart?: { destroy(): void };
}

/** How long after a playground call the list is read again: a burst of calls reads it once. */
const LAST_USED_REFRESH_MS = 300;

/**
 * The signed-in account's keys: issue (plaintext shown once), list, rename in place, each key's usage of
 * the last 7 days as a chart, revoke after a confirmation. "Last used" follows the playground's calls.
 */
export function setupKeys(events: { onUseKey(key: string): void; onSessionEnded(): void }) {
  const panel = byId("keys");
  const newKey = byId("new-key");
  const newKeyValue = byId<HTMLInputElement>("new-key-value");
  const dialog = byId<HTMLDialogElement>("revoke-dialog");
  const issueForm = byId<HTMLFormElement>("issue-key-form");
  const issueMessages = messageArea("issue-key", issueForm);
  const newKeyMessages = messageArea("new-key", newKey);
  // The list's own news (a key renamed or revoked, the list unreadable) goes above it.
  const listMessages = messageArea("key-list", byId("key-table"), "before");
  let pendingRevoke: ListedKey | undefined;
  let rows = new Map<string, KeyRow>();
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;

  const forgetNewKey = () => {
    newKeyValue.value = "";
    newKey.hidden = true;
  };

  /**
   * A refusal: a session that ended meanwhile shows the sign-in form; anything else is said as the API
   * said it, in `messages`, describing the fields of `form` it is about.
   */
  const refused = (messages: MessageArea, what: string, result: { status: number; code: string; message: string }, form?: HTMLFormElement) => {
    if (result.status === 401) return events.onSessionEnded();
    messages.fail(`${what}: ${result.message}`, form ? refusedFields(form, result) : []);
  };

  const clearRows = () => {
    for (const entry of rows.values()) entry.chart?.destroy();
    rows = new Map();
    byId("key-rows").replaceChildren();
  };

  const load = async () => {
    const result = await callApi<{ items: ListedKey[] }>("GET", "/v1/keys");
    if (!result.ok) return refused(listMessages, "Could not list your keys", result);
    clearRows();
    for (const key of result.data.items) rows.set(key.id, keyRow(key));
    byId("key-rows").replaceChildren(...[...rows.values()].flatMap((entry) => [entry.row, entry.usageRow]));
    byId("no-keys").hidden = rows.size > 0;
  };

  /** After the playground used a key: only the "Last used" cells change, so an open chart or rename stays. */
  const refreshLastUsed = async () => {
    if (panel.hidden) return;
    const result = await callApi<{ items: ListedKey[] }>("GET", "/v1/keys");
    if (!result.ok) return;
    const sameKeys = result.data.items.length === rows.size && result.data.items.every((key) => rows.has(key.id));
    if (!sameKeys) return load();
    for (const key of result.data.items) {
      const entry = rows.get(key.id)!;
      entry.key.lastUsedAt = key.lastUsedAt;
      entry.lastUsed.textContent = formatDate(key.lastUsedAt);
    }
  };

  const keyRow = (key: ListedKey): KeyRow => {
    const row = el("tr", "", { "data-key-id": key.id });
    const nameCell = el("td", key.name, { "data-label": "Name" });
    const prefix = el("td", "", { "data-label": "Prefix" });
    prefix.append(el("code", `${key.keyPrefix}…`));
    const lastUsed = el("td", formatDate(key.lastUsedAt), { "data-label": "Last used", class: "last-used" });
    const usageId = `usage-${key.id}`;
    const rename = el("button", "Rename", { type: "button", class: "secondary", "aria-label": `Rename key ${key.name}` });
    const usageButton = el("button", "Usage", { type: "button", class: "secondary", "aria-expanded": "false", "aria-controls": usageId, "aria-label": `Usage of key ${key.name}` });
    const revoke = el("button", "Revoke", { type: "button", class: "danger", "aria-label": `Revoke key ${key.name}` });
    const actions = el("td");
    const group = el("div", "", { class: "actions" });
    group.append(rename, usageButton, revoke);
    actions.append(group);
    row.append(nameCell, prefix, el("td", formatDate(key.createdAt), { "data-label": "Created" }), lastUsed, actions);

    const usageRow = el("tr", "", { class: "usage-row" });
    usageRow.hidden = true;
    const usageCell = el("td", "", { colspan: "5" });
    const usage = el("div", "", { id: usageId, class: "usage", role: "region", "aria-label": `Usage of key ${key.name}` });
    usageCell.append(usage);
    const usageMessages = messageArea(`usage-${key.id}-messages`, usageCell);
    usageRow.append(usageCell);

    const entry: KeyRow = { key, row, nameCell, lastUsed, rename, usageButton, revoke, usageRow, usage, usageMessages };
    rename.addEventListener("click", () => startRename(entry));
    usageButton.addEventListener("click", () => void toggleUsage(entry));
    revoke.addEventListener("click", () => {
      pendingRevoke = entry.key;
      byId("revoke-text").textContent = `“${entry.key.name}” (${key.keyPrefix}…) stops working at once, for every program that uses it.`;
      dialog.returnValue = "";
      dialog.showModal();
    });
    return entry;
  };

  const labelButtons = (entry: KeyRow) => {
    const name = entry.key.name;
    entry.rename.setAttribute("aria-label", `Rename key ${name}`);
    entry.usageButton.setAttribute("aria-label", `Usage of key ${name}`);
    entry.usage.setAttribute("aria-label", `Usage of key ${name}`);
    entry.revoke.setAttribute("aria-label", `Revoke key ${name}`);
  };

  /** The name cell becomes a small form; Enter saves, Escape or Cancel puts the name back. */
  const startRename = (entry: KeyRow) => {
    const inputId = `rename-${entry.key.id}`;
    const form = el("form", "", { class: "inline rename-form" });
    const renameMessages = messageArea(`rename-${entry.key.id}`, form);
    const label = el("label", `New name for key ${entry.key.name}`, { for: inputId, class: "visually-hidden" });
    const input = el("input", "", { id: inputId, name: "name", maxlength: "64", required: "", autocomplete: "off" });
    input.value = entry.key.name;
    const save = el("button", "Save", { type: "submit" });
    const cancel = el("button", "Cancel", { type: "button", class: "secondary" });
    form.prepend(label, input, save, cancel);
    entry.rename.hidden = true;
    entry.nameCell.replaceChildren(form);
    input.focus();
    input.select();

    const finish = () => {
      entry.nameCell.replaceChildren(entry.key.name);
      entry.rename.hidden = false;
      entry.rename.focus();
    };
    cancel.addEventListener("click", finish);
    input.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        finish();
      }
    });
    onSubmit(form, async (data) => {
      const before = entry.key.name;
      const result = await callApi<ListedKey>("PATCH", `/v1/keys/${encodeURIComponent(entry.key.id)}`, { body: { name: String(data.get("name") ?? "") } });
      if (!result.ok) {
        refused(renameMessages, `Could not rename “${before}”`, result, form);
        input.focus();
        return;
      }
      entry.key = { ...entry.key, ...result.data };
      labelButtons(entry);
      finish();
      listMessages.say(`Key “${before}” renamed to “${entry.key.name}”.`);
    });
  };

  const toggleUsage = async (entry: KeyRow) => {
    const open = entry.usageButton.getAttribute("aria-expanded") === "true";
    if (open) {
      entry.usageButton.setAttribute("aria-expanded", "false");
      entry.usageRow.hidden = true;
      entry.usageMessages.clear();
      entry.chart?.destroy();
      entry.chart = undefined;
      return;
    }
    entry.usageButton.setAttribute("aria-expanded", "true");
    entry.usageRow.hidden = false;
    await showUsage(entry);
  };

  const showUsage = async (entry: KeyRow) => {
    entry.usage.replaceChildren(el("p", "Loading usage…"));
    entry.usage.setAttribute("aria-busy", "true");
    const result = await callApi<{ items: HourUsage[] }>("GET", `/v1/keys/${encodeURIComponent(entry.key.id)}/usage`);
    entry.usage.removeAttribute("aria-busy");
    if (!result.ok) {
      entry.usage.replaceChildren();
      return refused(entry.usageMessages, `Could not load the usage of “${entry.key.name}”`, result);
    }
    entry.chart?.destroy();
    entry.chart = renderUsage(entry.usage, result.data.items, entry.key.name);
    // Counts reach the server's store a few seconds after the requests: reading again is the way to see the latest.
    const refresh = el("button", "Refresh usage", { type: "button", class: "secondary refresh-usage", "aria-label": `Refresh the usage of key ${entry.key.name}` });
    refresh.addEventListener("click", async () => {
      await showUsage(entry);
      // Drawn again, the button is a new one: the focus goes to it, where it was.
      entry.usage.querySelector<HTMLButtonElement>(".refresh-usage")?.focus();
      entry.usageMessages.say(`Usage of “${entry.key.name}” updated.`);
    });
    entry.usage.append(refresh);
  };

  onSubmit(issueForm, async (data) => {
    const result = await callApi<{ name: string; key: string }>("POST", "/v1/keys", { body: { name: String(data.get("name") ?? "") } });
    if (!result.ok) return refused(issueMessages, "Could not issue the key", result, issueForm);
    issueForm.reset();
    newKeyValue.value = result.data.key;
    newKey.hidden = false;
    newKeyMessages.say(`Key “${result.data.name}” issued. Copy it now: you will not see it again.`);
    byId("copy-key").focus();
    await load();
  });

  byId("copy-key").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(newKeyValue.value);
      newKeyMessages.say("Key copied to the clipboard.");
    } catch {
      // Clipboard access can be refused: leave the key selected for Ctrl+C instead.
      newKeyValue.select();
      newKeyMessages.say("The key is selected: copy it with Ctrl+C (⌘C on a Mac).");
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
    if (!result.ok) return refused(listMessages, `Could not revoke “${key.name}”`, result);
    listMessages.say(`Key “${key.name}” revoked.`);
    await load();
    byId("key-name").focus();
  });

  return {
    /** A call with an API key was answered (the playground's): "Last used" may have moved. */
    keyUsed() {
      clearTimeout(refreshTimer);
      refreshTimer = setTimeout(() => void refreshLastUsed(), LAST_USED_REFRESH_MS);
    },
    async show() {
      panel.hidden = false;
      await load();
    },
    hide() {
      panel.hidden = true;
      clearTimeout(refreshTimer);
      forgetNewKey();
      clearRows();
    },
  };
}
