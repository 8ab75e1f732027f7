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

/** Success and progress, read out politely by screen readers (the region is `role="status"`). */
export function announce(message: string): void {
  byId("error").textContent = "";
  byId("status").textContent = message;
}

/** A failure, read out at once (`role="alert"`): nothing the API refuses passes in silence. */
export function reportError(message: string): void {
  byId("status").textContent = "";
  byId("error").textContent = message;
}

export function formatDate(iso: string | null): string {
  return iso === null ? "never" : new Date(iso).toLocaleString();
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
