import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type RunningServer } from "../helpers/binary";
import { BINARY_PATH, ROOT } from "../helpers/paths";

/**
 * The README's quick start, accounts and trial blocks run as written, in order, in one shell, against a
 * fresh binary: every command succeeds, and what the README shows an answer to be is what comes back.
 */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ args: ["--workers", "1"] });
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

function readmeCommands(): { command: string; shows: string | undefined; note: string | undefined }[] {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Try it"), readme.indexOf("## Dashboard and API docs"));
  const lines = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) => block[1]!.split("\n"));
  const commands = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "" || line.startsWith("#")) continue;
    const hash = line.search(/\s#\s/);
    const next = lines[i + 1];
    commands.push({
      command: hash === -1 ? line : line.slice(0, hash),
      // A comment line right after a command shows (the start of) its answer.
      shows: next?.startsWith("# {") ? next.slice(2).split("...")[0] : undefined,
      note: hash === -1 ? undefined : line.slice(hash).replace(/^\s#\s/, ""),
    });
  }
  return commands;
}

test("every shell block of the quick start, accounts and trial sections runs as written, in order", () => {
  const commands = readmeCommands();
  expect(commands.length).toBeGreaterThan(15);
  // The README's server is the default address from the project root; this one listens on its own port.
  const script = commands
    .map(({ command }, i) => `${command.replaceAll("http://127.0.0.1:3000", server.url).replaceAll("dist/foodapi", BINARY_PATH)}\necho; echo "@@ ${i} $?"`)
    .join("\n");
  const run = Bun.spawnSync(["bash", "-c", script], { cwd: server.cwd, stdout: "pipe", stderr: "pipe", env: { PATH: process.env.PATH ?? "", HOME: server.cwd } });
  const output = run.stdout.toString();
  const answers = output.split(/\n?@@ \d+ \d+\n/);
  const codes = [...output.matchAll(/@@ (\d+) (\d+)/g)].map((m) => Number(m[2]));
  expect(codes).toEqual(commands.map(() => 0));
  commands.forEach(({ command, shows, note }, i) => {
    const answer = answers[i]!.trim();
    if (shows !== undefined) expect([command, answer.slice(0, shows.length)]).toEqual([command, shows]);
    // No answer is an error of the API (every block is a success path), and the noted statuses hold.
    if (answer.startsWith("{")) {
      const keys = Object.keys(JSON.parse(answer.split("\n")[0]!)).sort().join(",");
      expect([command, keys]).not.toEqual([command, "code,message"]);
    }
    for (const status of note?.match(/\b[2-5]\d\d\b/g) ?? []) {
      if (command.includes("http_code")) expect([command, answer]).toEqual([command, status]);
    }
  });
  // The blocks leave nothing behind in the working directory but the server's data directory.
  expect(Bun.spawnSync(["ls", server.cwd]).stdout.toString().trim()).toBe("data");
}, 60_000);
