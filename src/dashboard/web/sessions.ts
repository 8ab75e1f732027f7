import { callApi } from "./api";
import { byId, el, formatDate } from "./dom";
import { messageArea } from "./messages";

interface ListedSession {
  id: string;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  ipAddress: string | null;
  userAgent: string | null;
  current: boolean;
}

/** "Firefox on Linux" from a User-Agent; the server keeps the whole string, a person needs the gist. */
function describeDevice(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const browser =
    [
      [/Edg\//, "Edge"],
      [/OPR\//, "Opera"],
      [/Firefox\//, "Firefox"],
      [/HeadlessChrome\//, "Headless Chrome"],
      [/Chrom(e|ium)\//, "Chrome"],
      [/Safari\//, "Safari"],
    ].find(([pattern]) => (pattern as RegExp).test(userAgent))?.[1] ?? /^[^\s/]+/.exec(userAgent)?.[0] ?? "Unknown program";
  const system = [
    [/Android/, "Android"],
    [/iPhone|iPad|iOS/, "iOS"],
    [/Windows/, "Windows"],
    [/Mac OS X|Macintosh/, "macOS"],
    [/CrOS/, "ChromeOS"],
    [/Linux/, "Linux"],
  ].find(([pattern]) => (pattern as RegExp).test(userAgent))?.[1];
  return system ? `${browser} on ${system}` : String(browser);
}

/** Where the account is signed in (GET list-sessions), each other session with a button to end it. */
export function setupSessions(events: { onSessionEnded(): void }) {
  const list = byId("session-list");
  const others = byId<HTMLButtonElement>("revoke-others");
  const heading = byId("sessions-title");
  // Under the heading, where the focus goes once a session's row (and its button) is gone.
  const messages = messageArea("sessions", heading, "after");

  const refused = (what: string, result: { status: number; message: string }) => {
    if (result.status === 401) return events.onSessionEnded();
    messages.fail(`${what}: ${result.message}`);
  };

  const load = async () => {
    const result = await callApi<ListedSession[]>("GET", "/api/auth/list-sessions");
    if (!result.ok) return refused("Could not list your sessions", result);
    list.replaceChildren(...result.data.map(sessionItem));
    others.hidden = !result.data.some((session) => !session.current);
  };

  const sessionItem = (session: ListedSession) => {
    const device = describeDevice(session.userAgent);
    const item = el("li", "", { class: "session", "data-session-id": session.id });
    const title = el("p", "", { class: "session-device" });
    title.append(el("strong", device));
    if (session.current) title.append(" ", el("span", "this device", { class: "badge" }));
    const where = session.ipAddress ? ` from ${session.ipAddress}` : "";
    const details = el("p", `Signed in on ${formatDate(session.createdAt)}${where}; last active ${formatDate(session.updatedAt)}.`, { class: "session-details" });
    item.append(title, details);
    if (session.userAgent) item.title = session.userAgent;
    if (!session.current) {
      const revoke = el("button", "Sign out", {
        type: "button",
        class: "secondary",
        "aria-label": `Sign out ${device}, signed in ${formatDate(session.createdAt)}`,
      });
      revoke.addEventListener("click", async () => {
        revoke.disabled = true;
        const result = await callApi("POST", "/api/auth/revoke-session", { body: { id: session.id } });
        revoke.disabled = false;
        if (!result.ok) return refused("Could not sign out that session", result);
        await load();
        // The button is gone with its row: the list's heading is the nearest place to carry on from.
        heading.focus();
        messages.say(`Signed out ${device}.`);
      });
      item.append(revoke);
    }
    return item;
  };

  others.addEventListener("click", async () => {
    others.disabled = true;
    const result = await callApi("POST", "/api/auth/revoke-other-sessions", { body: {} });
    others.disabled = false;
    if (!result.ok) return refused("Could not sign out your other devices", result);
    await load();
    heading.focus();
    messages.say("Your other devices are signed out.");
  });

  return {
    load,
    clear() {
      list.replaceChildren();
    },
  };
}
