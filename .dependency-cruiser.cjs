/**
 * The layers of src/ (docs/architecture.md), checked by `npm run lint:deps` in `npm test`:
 *   src/main.ts, src/cli/   entry points
 *   src/app/                the composition root: the only place that knows every capability
 *   src/<capability>/       one feature each, importing another only along the data's own references
 *   src/platform/           knows no capability
 * Imports go down only, and there is no cycle.
 */
const CAPABILITIES = ["catalog", "analysis", "label", "accounts", "keys", "trial", "limits", "usage", "meta", "metrics", "docs", "dashboard"];

/**
 * Which capabilities each may import: along the data's own references, nothing else. Where a capability
 * needs something of one it may not import (accounts of their keys, keys of their usage, metrics of the
 * worker processes), it declares the port it needs and src/app/ fills it (accounts/account-keys.ts,
 * keys/use.ts, metrics/fleet.ts). The graph this allows has no cycle.
 */
const MAY_IMPORT = {
  catalog: [],
  // The limiter counts requests by buckets that others name: it refers to nobody.
  limits: [],
  metrics: [],
  accounts: ["limits"],
  // A key belongs to an account: its table refers to the account's, its routes need the account's session.
  keys: ["accounts", "limits"],
  trial: ["limits"],
  // Usage is counted per key.
  usage: ["keys"],
  // The service's description shows the catalog's paging and the trial's allowance.
  meta: ["catalog", "trial"],
  // The document describes the session cookie and the trial token.
  docs: ["accounts", "trial"],
  // A recipe's lines are matched to the catalog's foods, portions and nutrient values; its serving gets the label.
  analysis: ["catalog", "label"],
  // A food's label is made from its catalog values and portions, checked as its detail is.
  label: ["catalog"],
  // The dashboard's assets list the catalog's food groups and nutrients; its pages draw labels with the
  // label's own SVG (a pure function over the label's JSON).
  dashboard: ["catalog", "label"],
};

const dir = (names) => `^src/(${names.join("|")})/`;

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import cycle: the modules on it cannot be understood, tested or moved one at a time. Break it at its root.",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "platform-imports-up",
      severity: "error",
      comment: "src/platform/ knows no capability, app/ or entry point: pass what it needs in, or let the capability register with it in src/app/.",
      from: { path: "^src/platform/" },
      to: { path: [dir([...CAPABILITIES, "app", "cli"]), "^src/main\\.ts$"] },
    },
    {
      name: "capability-imports-app-or-cli",
      severity: "error",
      comment: "A capability may not import the composition root (src/app/) or an entry point (src/cli/, src/main.ts).",
      from: { path: dir(CAPABILITIES) },
      to: { path: ["^src/(app|cli)/", "^src/main\\.ts$"] },
    },
    {
      name: "app-imports-entry-point",
      severity: "error",
      comment: "src/app/ is imported by the entry points, never the other way.",
      from: { path: "^src/app/" },
      to: { path: ["^src/cli/", "^src/main\\.ts$"] },
    },
    ...CAPABILITIES.map((capability) => {
      const others = CAPABILITIES.filter((other) => other !== capability && !MAY_IMPORT[capability].includes(other));
      return {
        name: `${capability}-imports-capability`,
        severity: "error",
        comment:
          `src/${capability}/ may import ${MAY_IMPORT[capability].length ? `no capability but ${MAY_IMPORT[capability].join(", ")}` : "no other capability"} ` +
          "(MAY_IMPORT in .dependency-cruiser.cjs): capabilities meet in src/app/, or along the data's own references; " +
          "declare the port you need and let src/app/ fill it.",
        from: { path: `^src/${capability}/` },
        to: { path: dir(others) },
      };
    }),
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment: "An import that resolves to no file.",
      from: { path: "^src/" },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // Bun's own modules, as Node's are: resolved by the runtime, not to a file.
    builtInModules: { add: ["bun", "bun:sqlite", "bun:test", "bun:ffi", "bun:jsc"] },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
