import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./paths";

/** A document a user reads: the README and every Markdown file in docs/, by its path from the root. */
export interface UserDoc {
  readonly path: string;
  readonly text: string;
}

export function userDocs(): UserDoc[] {
  const paths = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((name) => name.endsWith(".md")).sort().map((name) => `docs/${name}`)];
  return paths.map((path) => ({ path, text: readFileSync(join(ROOT, path), "utf8") }));
}

/** The 1-based line of `index` in `text`, to say where a finding is. */
export function lineOf(text: string, index: number): number {
  return text.slice(0, index).split("\n").length;
}
