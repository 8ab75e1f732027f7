import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { IS_ROOT } from "../helpers/binary";
import { forgetChild, trackChild } from "../helpers/hygiene";
import { BINARY_PATH, ROOT } from "../helpers/paths";

/**
 * The admin commands on the systemd install, with the unit's real paths: /etc/foodapi/foodapi.env,
 * /var/lib/foodapi (a link to /var/lib/private/foodapi, owned by the service's user, behind a directory only
 * root can enter), /var/cache/foodapi, /usr/local/bin/foodapi. Each run happens in a private mount namespace
 * (unshare) where temporary directories are mounted over those paths (/etc gets an overlay, so that the rest
 * of it stays), so nothing on the machine changes. The service is the binary started with the unit's
 * ExecStart, as a user of its own that owns the directories, in a namespace of its own where
 * /var/lib/private can be entered, as systemd arranges for a DynamicUser service. The blocks of
 * docs/admin-commands.md marked as running on the systemd install run as written, as root, line by line.
 */

const DEPLOY = join(ROOT, "deploy");
const UNIT = readFileSync(join(DEPLOY, "foodapi.service"), "utf8");
const EXEC_START = /^ExecStart=(.*)$/m.exec(UNIT)![1]!;
/** A uid from systemd's DynamicUser range (61184-65519), owning nothing else on the machine. */
const SERVICE_UID = 61_873;
const DOC = readFileSync(join(ROOT, "docs/admin-commands.md"), "utf8");
const MARKER = "<!-- runs-on-the-systemd-install -->";

const have = (program: string) => Bun.spawnSync(["sh", "-c", `command -v ${program}`]).exitCode === 0;
const missing = [!IS_ROOT && "root (mount namespaces, other users)", ...["unshare", "setpriv", "timeout"].filter((p) => !have(p))].filter(Boolean);
// CI runs as root with util-linux (.ci/run): there, a missing piece is a failure, not a skip.
const runs = missing.length === 0 || Boolean(process.env.CI);
if (!runs) console.warn(`skipping the admin commands on the systemd install: needs ${missing.join(", ")}`);

/** The doc's marked blocks, in order: each line that is not a comment is a command; `# ` lines after it show its output. */
function docCommands(): { command: string; shows: string[] }[] {
  const blocks = DOC.split(MARKER).slice(1).map((rest) => /^\s*```sh\n([\s\S]*?)```/.exec(rest)?.[1]);
  expect(blocks.every((block) => block !== undefined)).toBe(true);
  const commands: { command: string; shows: string[] }[] = [];
  for (const line of blocks.join("").split("\n")) {
    if (line.trim() === "") continue;
    if (line.startsWith("# ")) commands.at(-1)?.shows.push(line.slice(2));
    else commands.push({ command: line, shows: [] });
  }
  return commands;
}

/** The unit's paths, as temporary directories: made before the unit's first start, as systemd makes them. */
function install(): string {
  const t = mkdtempSync(join(tmpdir(), "foodapi-systemd-"));
  for (const dir of ["etc-upper/foodapi", "etc-work", "var-lib/private/foodapi", "var-cache/private/foodapi", "var-backups", "bin", "home"]) mkdirSync(join(t, dir), { recursive: true });
  // As the README's install steps: the example env file, 0600 root. Port 0: any free one (other tests run beside).
  writeFileSync(join(t, "etc-upper/foodapi/foodapi.env"), `${readFileSync(join(DEPLOY, "foodapi.env.example"), "utf8")}\nPORT=0\nFOODAPI_WORKERS=2\n`, { mode: 0o600 });
  // systemd: StateDirectory= and CacheDirectory= with DynamicUser=yes.
  for (const kind of ["var-lib", "var-cache"]) {
    chmodSync(join(t, kind, "private"), 0o700);
    chownSync(join(t, kind, "private/foodapi"), SERVICE_UID, SERVICE_UID);
    chmodSync(join(t, kind, "private/foodapi"), 0o700);
    symlinkSync("private/foodapi", join(t, kind, "foodapi"));
  }
  writeFileSync(join(t, "bin/foodapi"), "");
  return t;
}

/** Mounts the unit's paths over the machine's, in the namespace the script runs in (it is gone with the script). */
const mounts = (t: string) => `
set -e
mount -t overlay overlay -o lowerdir=/etc,upperdir=${t}/etc-upper,workdir=${t}/etc-work /etc
mount --bind ${t}/var-lib /var/lib
mount --bind ${t}/var-cache /var/cache
mount --bind ${t}/var-backups /var/backups
mount --bind ${t}/bin /usr/local/bin
mount --bind ${BINARY_PATH} /usr/local/bin/foodapi
set +e
export PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
cd ${t}/home
`;

/**
 * systemctl start and stop for the script: the unit's ExecStart as written, as SERVICE_UID with no new
 * privileges and UMask=0077, with the env file's variables and no others, in a namespace where
 * /var/lib/private and /var/cache/private hold only this service's directories (as systemd arranges).
 * Start returns once the start-up line is out, non-zero if the service stops first. The log keeps every start's lines.
 */
const serviceControl = (t: string) => `
SERVICE_PID=
touch ${t}/service.log
service_start() {
  started=$(grep -c 'listening on' ${t}/service.log)
  unshare --mount --propagation private sh -c '
    set -e
    for kind in lib cache; do
      mount -t tmpfs -o mode=0755 tmpfs /var/$kind/private
      mkdir /var/$kind/private/foodapi
      mount --bind "$0/var-$kind/private/foodapi" /var/$kind/private/foodapi
    done
    umask 0077
    exec env -i PATH=/usr/local/bin:/usr/bin:/bin sh -c "set -a; . /etc/foodapi/foodapi.env; set +a; exec setpriv --reuid ${SERVICE_UID} --regid ${SERVICE_UID} --clear-groups --no-new-privs --pdeathsig TERM ${EXEC_START}"
  ' ${t} </dev/null >/dev/null 2>>${t}/service.log &
  SERVICE_PID=$!
  for i in $(seq 1200); do
    [ "$(grep -c 'listening on' ${t}/service.log)" -gt "$started" ] && return 0
    kill -0 $SERVICE_PID 2>/dev/null || { cat ${t}/service.log >&2; return 1; }
    sleep 0.1
  done
  return 1
}
systemctl() {
  case "$*" in
    "stop foodapi") kill -TERM $SERVICE_PID && wait $SERVICE_PID ;;
    "start foodapi") service_start ;;
    *) echo "this test's systemctl knows 'start foodapi' and 'stop foodapi' only" >&2; return 1 ;;
  esac
}
trap '[ -n "$SERVICE_PID" ] && kill -TERM $SERVICE_PID 2>/dev/null; wait' EXIT
`;

/** Runs `script` as root in a new mount namespace with the unit's paths mounted; at most 150 s. */
async function inNamespace(t: string, script: string, stdin = "") {
  const child = trackChild(
    Bun.spawn(["timeout", "150", "unshare", "--mount", "--propagation", "private", "bash", "-c", mounts(t) + script], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      stdin: new TextEncoder().encode(stdin),
      stdout: "pipe",
      stderr: "pipe",
    }),
  );
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  forgetChild(child);
  return { stdout, stderr, exitCode };
}

/** Every entry of the state directory, with its owner and mode, for the assertion's message. */
const stateFiles = (t: string) =>
  readdirSync(join(t, "var-lib/private/foodapi")).map((name) => {
    const s = statSync(join(t, "var-lib/private/foodapi", name));
    return { name, uid: s.uid, gid: s.gid, mode: (s.mode & 0o777).toString(8) };
  });

describe("the admin commands on the systemd install", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test.skipIf(!runs)("every marked block of docs/admin-commands.md runs as written, as root, beside the running service, and leaves every state file the service's", async () => {
    expect(missing).toEqual([]);
    const t = install();
    dirs.push(t);
    const commands = docCommands();
    expect(commands.length).toBeGreaterThan(10);
    const script =
      serviceControl(t) +
      "service_start || exit 99\n" +
      commands.map(({ command }, i) => `{ ${command}\n} 2>&1\necho "@@ ${i} $?"`).join("\n") +
      "\n";
    // The one line that reads stdin: the new password of `users set-password`, as typed at its prompt.
    const run = await inNamespace(t, script, "a new password for you\n");
    const serviceLog = readFileSync(join(t, "service.log"), "utf8");
    expect(run.exitCode, `${run.stderr}\n${serviceLog}`).toBe(0);
    const answers = run.stdout.split(/@@ \d+ \d+\n/);
    const codes = [...run.stdout.matchAll(/@@ (\d+) (\d+)/g)].map((m) => Number(m[2]));
    expect(commands.map(({ command }, i) => [command, codes[i], answers[i]])).toEqual(commands.map(({ command }, i) => [command, 0, answers[i]]));
    // What the doc shows is what came back: each shown line's words before the first one that varies
    // (an id, a count, a time) start a line of the answer, as printed (/var/lib/foodapi, not a link's target).
    const words = (line: string) => line.trim().split(/\s+/).join(" ");
    commands.forEach(({ command, shows }, i) => {
      for (const shown of shows) {
        const fixed = shown.split(/\s+/).filter(Boolean);
        const stable = fixed.slice(0, Math.max(0, fixed.findIndex((word) => /\d/.test(word)) === -1 ? fixed.length : fixed.findIndex((word) => /\d/.test(word)))).join(" ");
        if (stable === "") continue;
        expect([command, answers[i]!.split("\n").some((line) => words(line).startsWith(stable))], `'${stable}' in the answer of ${command}:\n${answers[i]}`).toEqual([command, true]);
      }
    });
    // The service started again on the restored state (the last line of the restore block), and every
    // file in its directory is its own: nothing root made there is out of its reach.
    expect(serviceLog).toContain("data directory /var/lib/foodapi");
    expect(serviceLog.match(/listening on/g)).toHaveLength(2);
    const files = stateFiles(t);
    expect(files.map((f) => f.name)).toContain("state.sqlite");
    expect(files.some((f) => f.name.startsWith("state.sqlite.replaced-"))).toBe(true);
    for (const file of files) expect(file).toEqual({ name: file.name, uid: SERVICE_UID, gid: SERVICE_UID, mode: "600" });
    // The backup is root's, private.
    const backups = readdirSync(join(t, "var-backups/foodapi"));
    expect(backups).toHaveLength(1);
    const backup = statSync(join(t, "var-backups/foodapi", backups[0]!));
    expect([backup.uid, backup.mode & 0o777]).toEqual([0, 0o600]);
  }, 180_000);

  test.skipIf(!runs)("the env file is read as the service reads it: a bad value is named with the file, the unit's flag wins over it, and the command's own variable over both", async () => {
    expect(missing).toEqual([]);
    const t = install();
    dirs.push(t);
    const envFile = join(t, "etc-upper/foodapi/foodapi.env");
    writeFileSync(envFile, `${readFileSync(envFile, "utf8")}FOODAPI_DATA_DIR=/srv/not-the-service\nFOODAPI_REDIS_URL=mysql://cache.internal:6379\n`);
    const bad = await inNamespace(t, "foodapi users list\n");
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toStartWith("foodapi: invalid FOODAPI_REDIS_URL in /etc/foodapi/foodapi.env: the scheme is 'mysql:'");
    // The unit's --data-dir wins over FOODAPI_DATA_DIR in the file, as in the service: the state directory,
    // which the service has not filled yet (no accounts).
    const unitFlag = await inNamespace(t, "FOODAPI_REDIS_URL= foodapi users list\n");
    expect([unitFlag.exitCode, unitFlag.stdout, unitFlag.stderr]).toEqual([0, "no accounts\n", ""]);
    const own = await inNamespace(t, "FOODAPI_REDIS_URL= FOODAPI_DATA_DIR=/srv/mine foodapi users list\n");
    expect([own.exitCode, own.stderr]).toEqual([
      1,
      "foodapi: no data directory at /srv/mine: 'users list' works on a server's data directory (start 'foodapi serve' there once, or pass --data-dir or FOODAPI_DATA_DIR)\n",
    ]);
    // users list made the state database there, as root: the service's, not root's.
    for (const file of stateFiles(t)) expect(file).toEqual({ name: file.name, uid: SERVICE_UID, gid: SERVICE_UID, mode: "600" });
  }, 60_000);

  test.skipIf(!runs)("not run as root, the env file cannot be read: the refusal says to run the command as root", async () => {
    expect(missing).toEqual([]);
    const t = install();
    dirs.push(t);
    chmodSync(join(t, "home"), 0o777);
    const run = await inNamespace(t, "setpriv --reuid 65534 --regid 65534 --clear-groups foodapi keys list\n");
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe(
      `foodapi: no data directory at ${t}/home/data: 'keys list' works on a server's data directory (start 'foodapi serve' there once, or pass --data-dir or FOODAPI_DATA_DIR); /etc/foodapi/foodapi.env is there: on the systemd install, run this as root (sudo) to use the service's settings and data directory\n`,
    );
  }, 60_000);
});
