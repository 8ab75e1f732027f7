/**
 * The start's ceiling: a `Bun.serve` that does nothing but answer, compiled as foodapi is (build.sh's
 * flags, bench/lib/servers.ts `compileStartCeiling`), so that bench/run times its start beside foodapi's,
 * exec to the first 200, in the same run. What is left between the two is foodapi's own start; the bare
 * start itself is what the machine charges for running a compiled Bun at all, and moves with it.
 *
 * Usage (as foodapi's): start-ceiling serve --host H --port P [anything else, ignored]. Answers 200 "ok" to
 * every path, so that both routes a start is timed to answer. Loopback only in the bench.
 */
const arg = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};

const server = Bun.serve({
  hostname: arg("--host") ?? "127.0.0.1",
  port: Number(arg("--port") ?? 0),
  fetch: () => new Response("ok"),
});
console.error(`start-ceiling listening on http://${server.hostname}:${server.port}`);

const stop = () => {
  server.stop(true);
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
// A module, not a script: its names are its own (bench/ceiling.ts declares the same ones).
export {};
