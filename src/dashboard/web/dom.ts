/** The few DOM helpers the dashboard needs. Text always goes in as textContent, never as HTML. */

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from index.html`);
  return element as T;
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text = "", attributes: Record<string, string> = {}): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  element.textContent = text;
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}

/**
 * A moment in the browser's language, with the month named ("23 Nov 2026, 14:05", "Nov 23, 2026, 2:05 PM"):
 * never the all-digit dates that read differently on either side of the Atlantic.
 */
const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
export function formatDate(iso: string | null): string {
  return iso === null ? "never" : DATE_TIME.format(new Date(iso));
}

/** Runs a form's submit handler with the button disabled, so a double click sends one request. */
export function onSubmit(form: HTMLFormElement, handler: (data: FormData) => Promise<void>): void {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
    if (button) button.disabled = true;
    try {
      await handler(new FormData(form));
    } finally {
      if (button) button.disabled = false;
    }
  });
}
