import { el } from "./dom";

/**
 * Where the page says how an action went: a message area next to the form or control that took it, in the
 * page's flow, so that it can never cover a control (a box pinned to the viewport covered buttons and
 * stayed behind, stale, under dialogs). A success is polite (`role="status"`) and fades; a failure is an
 * alert (`role="alert"`), stays until the next action, and describes the fields it is about
 * (`aria-describedby`, `aria-invalid`). One message at a time: a new one, or any button pressed or form
 * sent, clears the others. While a modal dialog is open the page's messages are hidden (styles.css); a
 * dialog says its own in an area inside it.
 */
export interface MessageArea {
  say(text: string): void;
  fail(text: string, fields?: readonly HTMLElement[]): void;
  clear(): void;
}

/** How long a success stays before it fades out (the fade itself is styles.css's `.fading`). */
const STATUS_MS = 8000;
const FADE_MS = 600;

/** The areas showing a message: those a new message or action clears. */
const showing = new Set<MessageArea>();

/**
 * An area with ids `<name>-status` and `<name>-error`, put `where` relative to `anchor`. Made when the page
 * is set up, empty: a live region must be in the page before its text changes for it to be read out.
 */
export function messageArea(name: string, anchor: Element, where: "append" | "before" | "after" = "append"): MessageArea {
  const box = el("div", "", { class: "message-area" });
  const status = el("p", "", { id: `${name}-status`, class: "message status", role: "status" });
  const error = el("p", "", { id: `${name}-error`, class: "message error", role: "alert" });
  box.append(status, error);
  if (where === "append") anchor.append(box);
  else anchor[where](box);

  let described: readonly HTMLElement[] = [];
  let timers: ReturnType<typeof setTimeout>[] = [];
  const clearOwn = () => {
    showing.delete(area);
    for (const timer of timers) clearTimeout(timer);
    timers = [];
    status.classList.remove("fading");
    status.textContent = "";
    error.textContent = "";
    for (const field of described) {
      setTokens(field, "aria-describedby", tokens(field, "aria-describedby").filter((id) => id !== error.id));
      field.removeAttribute("aria-invalid");
    }
    described = [];
  };
  // Seen, not only read out: an area below the fold is scrolled to, as little as needed.
  const show = (message: HTMLElement) => message.scrollIntoView({ block: "nearest" });

  const area: MessageArea = {
    say(text) {
      clearMessages();
      showing.add(area);
      status.textContent = text;
      show(status);
      timers = [
        setTimeout(() => status.classList.add("fading"), STATUS_MS),
        setTimeout(clearOwn, STATUS_MS + FADE_MS),
      ];
    },
    fail(text, fields = []) {
      clearMessages();
      showing.add(area);
      error.textContent = text;
      described = fields;
      for (const field of fields) {
        setTokens(field, "aria-describedby", [...tokens(field, "aria-describedby"), error.id]);
        field.setAttribute("aria-invalid", "true");
      }
      show(error);
    },
    clear: clearOwn,
  };
  return area;
}

/** Every area's message goes: they answered an earlier action. */
function clearMessages(): void {
  for (const area of [...showing]) area.clear();
}

/** A new action makes the messages about the last one stale: any button pressed, any form sent. */
export function clearMessagesOnAction(): void {
  document.addEventListener("click", (event) => {
    if (event.target instanceof Element && event.target.closest("button")) clearMessages();
  }, { capture: true });
  document.addEventListener("submit", clearMessages, { capture: true });
}

const tokens = (element: HTMLElement, attribute: string) => (element.getAttribute(attribute) ?? "").split(/\s+/).filter(Boolean);
function setTokens(element: HTMLElement, attribute: string, values: string[]): void {
  if (values.length === 0) element.removeAttribute(attribute);
  else element.setAttribute(attribute, [...new Set(values)].join(" "));
}
