import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, type RunningServer } from "../helpers/binary";
import { jsonPost, sessionCookie } from "../helpers/http";
import { BINARY_PATH, ROOT } from "../helpers/paths";

/**
 * The README's "Try it" blocks, then every shell block of docs/api.md, run as written, in order, in one shell,
 * against a fresh binary: every command succeeds, every answer ends its line (a JSON body that ran into the
 * next prompt would not), and what the docs show an answer to be is what comes back.
 */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ args: ["--workers", "1"] });
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

type Command = { command: string; shows: string | undefined; note: string | undefined };

/** The text of the README's "Try it" section, up to the next section. */
function tryIt(): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf("\n## Try it\n");
  expect(start).toBeGreaterThan(-1);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

function shellCommands(markdown: string): Command[] {
  const lines = [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) => block[1]!.split("\n"));
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

const documentedCommands = () => [...shellCommands(tryIt()), ...shellCommands(readFileSync(join(ROOT, "docs/api.md"), "utf8"))];

/** The docs' server is the default address from the project root; this one listens on its own port. */
const asHere = (command: string) => command.replaceAll("http://127.0.0.1:3000", server.url).replaceAll("dist/foodapi", BINARY_PATH);
const shellEnv = () => ({ PATH: process.env.PATH ?? "", HOME: server.cwd });

test("every shell block of the README's Try it and of docs/api.md runs as written, in order", () => {
  const commands = documentedCommands();
  expect(commands.length).toBeGreaterThan(30);
  // `$?` is read by printf's own arguments, before printf runs: the command's status, not an echo's.
  const script = commands.map(({ command }, i) => `${asHere(command)}\nprintf '@@ %d %d\\n' ${i} $?`).join("\n");
  const run = Bun.spawnSync(["bash", "-c", script], { cwd: server.cwd, stdout: "pipe", stderr: "pipe", env: shellEnv() });
  const output = run.stdout.toString();
  const answers = output.split(/@@ \d+ \d+\n/);
  const codes = [...output.matchAll(/@@ (\d+) (\d+)\n/g)].map((m) => Number(m[2]));
  expect(codes).toEqual(commands.map(() => 0));
  commands.forEach(({ command, shows, note }, i) => {
    const raw = answers[i]!;
    // What a command prints ends its line, so the next prompt (here, the marker) starts on a line of its own.
    if (raw !== "") expect([command, raw.at(-1)]).toEqual([command, "\n"]);
    const answer = raw.trim();
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

test("the README's line that picks a key's id from the list picks the newest of several", async () => {
  const line = shellCommands(tryIt()).find(({ command }) => command.startsWith("ID=$(curl "));
  expect(line).toBeDefined();
  // The filter the list's answer goes through: everything after the curl, inside the $( ).
  const filter = /^ID=\$\(curl [^|]*\| (.*)\)\s*$/.exec(line!.command)?.[1];
  expect(filter).toBeDefined();

  const signUp = await fetch(`${server.url}/api/auth/sign-up/email`, jsonPost({ email: "several@example.com", password: "a long password", name: "S" }));
  expect(signUp.status).toBe(200);
  const cookie = sessionCookie(signUp);
  const issued: string[] = [];
  for (const name of ["oldest", "middle", "newest"]) {
    const created = await fetch(`${server.url}/v1/keys`, jsonPost({ name }, { cookie }));
    expect(created.status).toBe(201);
    issued.push(((await created.json()) as { id: string }).id);
  }
  const list = await (await fetch(`${server.url}/v1/keys`, { headers: { cookie } })).text();
  const picked = Bun.spawnSync(["bash", "-c", `printf '%s' "$LIST" | ${filter}`], { env: { ...shellEnv(), LIST: list }, stdout: "pipe" });
  expect(picked.exitCode).toBe(0);
  expect(picked.stdout.toString().trim()).toBe(issued.at(-1)!);
});
