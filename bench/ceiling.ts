/**
 * The physical ceiling for a route: a minimal Bun.serve answering every request with one fixed JSON body of
 * a given size (same content-type as the API). Loopback only.
 *
 * Usage: bun bench/ceiling.ts [SIZE_BYTES]   (or CEILING_BYTES=...; CEILING_PORT=0 picks a free port)
 * Prints "ceiling listening on http://127.0.0.1:PORT (N bytes)" on stderr; SIGTERM/SIGINT stop it.
 */
const size = Number(process.argv[2] ?? process.env.CEILING_BYTES ?? 1500);
const port = Number(process.env.CEILING_PORT ?? 0);
if (!Number.isInteger(size) || size < 16) {
  console.error(`ceiling: size must be an integer >= 16 bytes, got ${process.argv[2] ?? process.env.CEILING_BYTES}`);
  process.exit(2);
}

/** A valid JSON document of exactly `bytes` bytes (ASCII): {"items":"xxxx..."}. */
function fixedJson(bytes: number): string {
  const frame = '{"items":""}';
  return `{"items":"${"x".repeat(bytes - frame.length)}"}`;
}

const body = fixedJson(size);
const headers = { "content-type": "application/json; charset=utf-8" };

const server = Bun.serve({
  hostname: "127.0.0.1",
  port,
  fetch: () => new Response(body, { headers }),
});
console.error(`ceiling listening on http://127.0.0.1:${server.port} (${body.length} bytes)`);

const stop = () => {
  server.stop(true);
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
