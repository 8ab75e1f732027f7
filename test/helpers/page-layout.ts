import type { Locator, Page } from "playwright-core";

/**
 * Geometry of a page in Chromium, measured in the page: where its messages are, what they cover, what is
 * wider than the screen. The functions run in the browser (playwright sends their source), so they reach
 * the DOM through `globalThis` rather than types this test program does not have.
 */

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ShownMessage {
  id: string;
  role: string;
  text: string;
  /** Its border box, in page coordinates (scroll included). */
  box: Box;
}

/** What the page says in a live region (`role=status` or `role=alert`) and shows: text in a visible box. */
export function shownMessages(page: Page): Promise<ShownMessage[]> {
  return page.evaluate(() => {
    const { document, scrollX, scrollY } = globalThis as any;
    return [...document.querySelectorAll("[role=status], [role=alert]")]
      .filter((element: any) => element.textContent.trim() !== "" && element.checkVisibility({ visibilityProperty: true, opacityProperty: true }))
      .map((element: any) => {
        const rect = element.getBoundingClientRect();
        return {
          id: element.id,
          role: element.getAttribute("role"),
          text: element.textContent.trim(),
          box: { x: rect.left + scrollX, y: rect.top + scrollY, width: rect.width, height: rect.height },
        };
      })
      .filter((message: ShownMessage) => message.box.width > 0 && message.box.height > 0);
  });
}

/**
 * Everything wrong with the page's layout as it stands, one line each (empty when sound):
 * - a shown message overlapping a visible control (button, input, select, textarea, link, summary), or
 *   a control with something else on top of it at its centre (a pinned box, say), at any scroll;
 * - the page, or any box in it, scrolling sideways; an element reaching past the viewport's edges.
 * While a modal dialog is open only its own controls can be reached, so only they are looked at.
 */
export function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const { document, innerHeight, getComputedStyle } = globalThis as any;
    const problems = new Set<string>();
    const name = (element: any) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}${[...element.classList].map((c: string) => `.${c}`).join("")}` +
      (element.matches("select, textarea") || !element.textContent.trim() ? "" : ` “${element.textContent.trim().slice(0, 40)}”`);
    const visible = (element: any) => {
      if (!element.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return false;
      const rect = element.getBoundingClientRect();
      return rect.width > 0 && rect.height > 0;
    };
    const viewportWidth = document.documentElement.clientWidth;
    const dialog = document.querySelector("dialog[open]");
    const scope = dialog ?? document.body;

    const controls = [...scope.querySelectorAll("button, input:not([type=hidden]), select, textarea, a[href], summary")].filter(visible);
    const messages = [...document.querySelectorAll("[role=status], [role=alert]")].filter((m: any) => m.textContent.trim() !== "" && visible(m));
    const lookAtThisScreen = () => {
      for (const message of messages) {
        const m = message.getBoundingClientRect();
        for (const control of controls) {
          if (message.contains(control) || control.contains(message)) continue;
          const c = control.getBoundingClientRect();
          const width = Math.min(m.right, c.right) - Math.max(m.left, c.left);
          const height = Math.min(m.bottom, c.bottom) - Math.max(m.top, c.top);
          if (width > 0.5 && height > 0.5) problems.add(`the message ${name(message)} overlaps ${name(control)}`);
        }
      }
      for (const control of controls) {
        const c = control.getBoundingClientRect();
        const x = c.left + c.width / 2;
        const y = c.top + c.height / 2;
        // A centre within a pixel of the viewport's edge is outside it for elementFromPoint, which rounds.
        if (x < 1 || y < 1 || x >= viewportWidth - 1 || y >= innerHeight - 1) continue;
        const top = document.elementFromPoint(x, y);
        // The control itself, something inside it, the label wrapped around it, or a decoration its own
        // wrapper draws over it (the ALTCHA widget's tick, aria-hidden, passing clicks on to its checkbox).
        const decoration = top?.closest("[aria-hidden=true]") && control.parentElement.contains(top);
        if (top && (control.contains(top) || (top.tagName === "LABEL" && top.control === control) || decoration)) continue;
        problems.add(`${name(control)} is covered at its centre by ${top ? name(top) : "nothing it owns"}`);
      }
    };
    // What a box pinned to the viewport covers depends on the scroll: the page is looked at from top to
    // bottom in steps shorter than a button and a one-line message together, and left as it was.
    const { scrollX, scrollY } = globalThis as any;
    const pageHeight = document.documentElement.scrollHeight;
    for (let y = 0, screens = 0; screens < 500; y += 48, screens++) {
      (globalThis as any).scrollTo(scrollX, Math.min(y, pageHeight - innerHeight));
      lookAtThisScreen();
      if (y >= pageHeight - innerHeight) break;
    }
    (globalThis as any).scrollTo(scrollX, scrollY);

    if (document.documentElement.scrollWidth > viewportWidth) {
      problems.add(`the page is ${document.documentElement.scrollWidth} px wide in a ${viewportWidth} px viewport`);
    }
    // An element inside a box that clips or scrolls sideways is that box's business: the box is checked.
    const clippedWithin = (element: any) => {
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        const style = getComputedStyle(parent);
        if (style.overflowX !== "visible" || style.clipPath !== "none") return true;
      }
      return false;
    };
    for (const element of scope.querySelectorAll("*")) {
      if (!visible(element) || element.closest(".skip-link")) continue;
      const style = getComputedStyle(element);
      if ((style.overflowX === "auto" || style.overflowX === "scroll") && element.scrollWidth > element.clientWidth + 1) {
        problems.add(`${name(element)} scrolls sideways (${element.scrollWidth} px of content in ${element.clientWidth} px)`);
      }
      const rect = element.getBoundingClientRect();
      if ((rect.left < -0.5 || rect.right > viewportWidth + 0.5) && !clippedWithin(element)) {
        problems.add(`${name(element)} reaches past the screen's edge (${Math.round(rect.left)} to ${Math.round(rect.right)} of ${viewportWidth} px)`);
      }
    }
    return [...problems];
  });
}

/**
 * The selects under `scope` whose chosen option's text is cut off: each is measured against a copy of
 * itself holding only that option, sized to its content with the same styles.
 */
export function truncatedSelects(scope: Locator): Promise<string[]> {
  return scope.evaluate((root: any) => {
    return [...root.querySelectorAll("select")]
      .filter((select: any) => select.checkVisibility() && select.selectedOptions.length > 0)
      .flatMap((select: any) => {
        const copy = select.cloneNode(false);
        copy.removeAttribute("id");
        copy.append(select.selectedOptions[0].cloneNode(true));
        for (const [property, value] of [["position", "absolute"], ["visibility", "hidden"], ["width", "auto"], ["min-width", "0"], ["max-width", "none"]]) {
          copy.style.setProperty(property, value, "important");
        }
        select.parentElement.append(copy);
        const needed = copy.getBoundingClientRect().width;
        copy.remove();
        const has = select.getBoundingClientRect().width;
        return needed > has + 0.5 ? [`#${select.id} shows “${select.selectedOptions[0].textContent}” in ${Math.round(has)} px of the ${Math.round(needed)} px it needs`] : [];
      });
  });
}

/** Whether `inner` lies within `outer`, or starts right below it (within `gap` px) and overlaps it across. */
export function insideOrJustAfter(inner: Box, outer: Box, gap = 16): boolean {
  const across = inner.x >= outer.x - 0.5 && inner.x + inner.width <= outer.x + outer.width + 0.5;
  const inside = inner.y >= outer.y - 0.5 && inner.y + inner.height <= outer.y + outer.height + 0.5;
  const after = inner.y >= outer.y + outer.height - 0.5 && inner.y <= outer.y + outer.height + gap;
  return across && (inside || after);
}

/** An element's border box in page coordinates (scroll included). */
export function pageBox(locator: Locator): Promise<Box> {
  return locator.evaluate((element: any) => {
    const rect = element.getBoundingClientRect();
    const { scrollX, scrollY } = globalThis as any;
    return { x: rect.left + scrollX, y: rect.top + scrollY, width: rect.width, height: rect.height };
  });
}
