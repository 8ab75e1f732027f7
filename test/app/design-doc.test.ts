import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/paths";

/**
 * Code cites docs/design.md by section ("design §11", "design §12, §13"). Every cited section must have its
 * heading there (`## 11. ...`), so a citation cannot point nowhere after a section is renumbered or removed.
 */
const CITATION = /design (§\d+(?:, §\d+)*)/g;
const SOURCE_FILE = /\.(ts|js|html|md|css|sh)$/;

function citations(): { where: string; section: number }[] {
  const found: { where: string; section: number }[] = [];
  for (const dir of ["src", "test"]) {
    for (const name of readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" })) {
      if (!SOURCE_FILE.test(name) || name.startsWith("fixtures/")) continue;
      const lines = readFileSync(join(ROOT, dir, name), "utf8").split("\n");
      lines.forEach((line, i) => {
        for (const match of line.matchAll(CITATION)) {
          for (const number of match[1]!.matchAll(/§(\d+)/g)) found.push({ where: `${dir}/${name}:${i + 1}`, section: Number(number[1]) });
        }
      });
    }
  }
  return found;
}

test("every 'design §N' cited in src/ and test/ has a section N in docs/design.md", () => {
  const doc = readFileSync(join(ROOT, "docs/design.md"), "utf8");
  const sections = [...doc.matchAll(/^## (\d+)\. /gm)].map((match) => Number(match[1]));
  // Numbered once each, in order: a duplicate would make a citation ambiguous.
  expect(sections).toEqual(sections.map((_, i) => i + 1));

  const cited = citations();
  expect(cited.length).toBeGreaterThan(0);
  const pointingNowhere = cited.filter(({ section }) => !sections.includes(section)).map(({ where, section }) => `${where} cites §${section}`);
  expect(pointingNowhere).toEqual([]);
});
