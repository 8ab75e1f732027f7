import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { cleanup, tempDir } from "../../bench/lib/processes";
import { type Server, startSyscallServer } from "../../bench/lib/servers";
import { PROBE_BODIES, PROBE_LONGEST, PROBE_SHORTEST, PROBE_WAYS, type ProbeWay, probeBodyOf, readProbeIndex, writeProbeBodies } from "../../bench/lib/syscall-probe";

// bench/syscall-cost.ts compares ways of sending a body only if every way sends the same bytes: each server
// must answer its nth request with the nth body of the sequence, whole, whatever way it gets the bytes.

const WAYS = Object.keys(PROBE_WAYS) as ProbeWay[];
let bodies: Uint8Array[];
const servers = new Map<ProbeWay, Server>();

beforeAll(async () => {
  const dir = tempDir("foodapi-syscall-test-");
  const { file, index } = writeProbeBodies(dir);
  const bytes = readFileSync(file);
  bodies = readProbeIndex(index).bodies.map(([offset, length]) => new Uint8Array(bytes.subarray(offset, offset + length)));
  for (const way of WAYS) servers.set(way, await startSyscallServer(way, dir));
});

afterAll(async () => {
  for (const server of servers.values()) await server.stop();
  cleanup();
});

test("the probe's bodies are JSON documents of 12-20 KB, each naming its place", () => {
  expect(bodies.length).toBe(PROBE_BODIES);
  bodies.forEach((body, i) => {
    expect(body.byteLength).toBeGreaterThanOrEqual(PROBE_SHORTEST);
    expect(body.byteLength).toBeLessThan(PROBE_LONGEST);
    expect((JSON.parse(Buffer.from(body).toString("latin1")) as { body: number }).body).toBe(i);
  });
});

for (const way of WAYS) {
  test(`the ${way} server answers its requests with the bodies in the probe's order, whole`, async () => {
    const url = servers.get(way)!.url;
    for (let n = 0; n < 5; n++) {
      const response = await fetch(url);
      expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(Buffer.from(await response.arrayBuffer()).equals(Buffer.from(bodies[probeBodyOf(n, PROBE_BODIES)]!))).toBe(true);
    }
    // Concurrent requests: a body read into the reused buffer is the one sent, never another's bytes.
    const sent = await Promise.all(Array.from({ length: 32 }, () => fetch(url).then((r) => r.arrayBuffer())));
    for (const body of sent) {
      const place = (JSON.parse(Buffer.from(body).toString("latin1")) as { body: number }).body;
      expect(Buffer.from(body).equals(Buffer.from(bodies[place]!))).toBe(true);
    }
  });
}
