import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { CONFIGURATION_DOC, generateConfigurationDoc } from "../../scripts/gen-config-doc";
import { SETTINGS } from "../../src/platform/config/settings";

/**
 * docs/configuration.md's tables of commands and settings are generated from the code's lists
 * (scripts/gen-config-doc.ts): a new setting, a changed default or help text fails here until
 * `npm run docs:config` has rewritten the doc and it is committed with the change.
 */
test("docs/configuration.md is what npm run docs:config writes", () => {
  const committed = readFileSync(CONFIGURATION_DOC, "utf8");
  const generated = generateConfigurationDoc(committed);
  if (generated !== committed) {
    const was = committed.split("\n");
    const differing = generated.split("\n").filter((line, i) => line !== was[i]).slice(0, 5);
    throw new Error(`docs/configuration.md differs from the code's settings and commands: run 'npm run docs:config'. First lines that differ:\n${differing.join("\n")}`);
  }
});

test("the generated table has one row per setting, each naming its variable", () => {
  const doc = readFileSync(CONFIGURATION_DOC, "utf8");
  for (const setting of Object.values(SETTINGS)) {
    expect(doc.split("\n").filter((line) => line.startsWith("| ") && line.includes(` | \`${setting.env}\` | `))).toHaveLength(1);
  }
});
