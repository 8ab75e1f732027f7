/**
 * Run as its own process (under a raised `ulimit -n`) by test/app/slow-clients.test.ts, against HOST:PORT:
 * - IDLE connections that each send one complete request, read its answer, then stay open and silent
 *   (a keep-alive client gone quiet: --idle-timeout's case);
 * - TRICKLE connections that send an unfinished request and then one more header byte every 500 ms
 *   (a slowloris).
 * Prints one JSON line on stdout when all are open (`{"open":N,"answered":N}`), then one per group when
 * the server has closed every connection of it (`{"group":"idle","closedMs":T}`, milliseconds after all
 * were open). Ends when both groups are closed, when its stdin closes (the test stopped it), or after
 * LIMIT_MS, closing whatever is still open.
 */
import type { Socket } from "bun";

const [host = "127.0.0.1", portText = "0", idleText = "1000", trickleText = "0"] = process.argv.slice(2);
const port = Number(portText);
const counts = { idle: Number(idleText), trickle: Number(trickleText) };
const LIMIT_MS = 60_000;

const sockets: Socket<unknown>[] = [];
const closed = { idle: 0, trickle: 0 };
let answered = 0;
let openedAt = 0;
const done = (code: number) => {
  for (const socket of sockets) {
    try {
      socket.end();
    } catch {}
  }
  process.exit(code);
};
const hardStop = setTimeout(() => done(1), LIMIT_MS);
process.stdin.on("close", () => done(0));
process.stdin.resume();

const report = (group: "idle" | "trickle") => {
  process.stdout.write(`${JSON.stringify({ group, closedMs: Math.round(performance.now() - openedAt) })}\n`);
  if (closed.idle === counts.idle && closed.trickle === counts.trickle) {
    clearTimeout(hardStop);
    setTimeout(() => done(0), 50);
  }
};
const onClose = (group: "idle" | "trickle") => () => {
  closed[group]++;
  if (closed[group] === counts[group] && openedAt > 0) report(group);
};

async function open(group: "idle" | "trickle", total: number) {
  // In batches, so that the listen backlog is not the thing measured.
  for (let i = 0; i < total; i += 100) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(100, total - i) }, async () => {
        let answeredHere: () => void = () => {};
        const gotAnswer = new Promise<void>((resolve) => (answeredHere = resolve));
        const socket = await Bun.connect({
          hostname: host,
          port,
          socket: {
            data() {
              answeredHere();
            },
            close: onClose(group),
            error: onClose(group),
          },
        });
        if (group === "idle") {
          socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
          await gotAnswer;
          answered++;
        } else {
          socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ");
        }
        return socket;
      }),
    );
    sockets.push(...batch);
  }
}

await open("idle", counts.idle);
const trickling = sockets.length;
await open("trickle", counts.trickle);
setInterval(() => {
  for (let i = trickling; i < sockets.length; i++) {
    try {
      sockets[i]!.write("a");
    } catch {}
  }
}, 500);
openedAt = performance.now();
process.stdout.write(`${JSON.stringify({ open: sockets.length, answered, closedAlready: closed.idle + closed.trickle })}\n`);
for (const group of ["idle", "trickle"] as const) if (counts[group] === 0) report(group);
