import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { lineOf, userDocs } from "../helpers/docs";
import { ROOT } from "../helpers/paths";

/**
 * Every relative link and image in the README and docs/ points to a file in the repository, and every
 * `#anchor` to a heading of the file it names, as GitHub makes anchors of headings.
 */

/** The text outside code: fenced blocks and inline code spans blanked, so offsets (and lines) stay. */
const outsideCode = (text: string) => text.replace(/```[\s\S]*?```|`[^`\n]*`/g, (code) => code.replace(/[^\n]/g, " "));

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens; repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  const text = markdown.replace(/```[\s\S]*?```/g, "");
  for (const match of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const words = match[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/`/g, "").trim();
    const slug = words.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/ /g, "-");
    const times = seen.get(slug) ?? 0;
    seen.set(slug, times + 1);
    found.add(times === 0 ? slug : `${slug}-${times}`);
  }
  return found;
}

test("every relative link and image in README.md and docs/ points to an existing file and heading", () => {
  const broken: string[] = [];
  let checked = 0;
  for (const doc of userDocs()) {
    const text = outsideCode(doc.text);
    for (const match of text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)) {
      const target = match[1]!;
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto: and the like
      checked++;
      const where = `${doc.path}:${lineOf(doc.text, match.index!)}`;
      const [file, anchor] = target.split("#") as [string, string | undefined];
      const path = file === "" ? doc.path : normalize(join(dirname(doc.path), file));
      if (path.startsWith("..") || !existsSync(join(ROOT, path))) {
        broken.push(`${where}: ${target} (no file ${path})`);
        continue;
      }
      if (anchor !== undefined && !(path.endsWith(".md") && anchors(readFileSync(join(ROOT, path), "utf8")).has(anchor))) {
        broken.push(`${where}: ${target} (no heading #${anchor} in ${path})`);
      }
    }
  }
  expect(checked).toBeGreaterThan(40);
  expect(broken).toEqual([]);
});

test("GitHub's anchors, as this test makes them", () => {
  const made = anchors("# foodapi\n## A food's detail\n### The dashboard and /docs\n## 1. Everywhere: one shape\n## `--flag` options\n## Try it\n## Try it\n```sh\n# not a heading\n```\n");
  expect([...made]).toEqual(["foodapi", "a-foods-detail", "the-dashboard-and-docs", "1-everywhere-one-shape", "--flag-options", "try-it", "try-it-1"]);
});
