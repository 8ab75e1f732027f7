/**
 * bench/syscall-cost: what a system call and a mapped read cost a request on this machine, measured on a
 * bare server (bench/syscall-server.ts) rather than on foodapi, so that nothing else moves with them. A plain
 * detail is read from the answers file (one `pread`) where its floor sends bytes from the heap; both ask the
 * kernel for the peer's address (one `getpeername`); a coded detail is a view of the mapping. What a system
 * call costs depends on the machine far more than on the code (a guest whose kernel isolates its page
 * tables, PTI, on a CPU without PCID pays the most), so the figures of docs/performance.md ("What a system
 * call costs here") hold for the machine they were read on: this tool reads them on another.
 *
 * One server per way of PROBE_WAYS, all up at once on the same 2,000 bodies of 12-20 KB, warmed, taking the
 * load in turn (bench/lib/wrk.ts measureRotation): BENCH_ROUNDS rounds of SYSCALL_SLICE_SECONDS each. Prints
 * the machine's mitigation facts, then each way's requests/s, server CPU per request, the difference from
 * the heap's and its peak RSS.
 *
 * Usage: bun bench/syscall-cost.ts   (no build needed). Loopback only; bounded by 4 ways x (warm-up + rounds x slice) of load.
 */
import { existsSync, readFileSync } from "node:fs";
import { release } from "node:os";
import { round } from "./lib/numbers";
import { cleanup, cleanUpOnSignals, tempDir } from "./lib/processes";
import { printTable } from "./lib/report";
import { type Server, startSyscallServer } from "./lib/servers";
import { ROUNDS, SYSCALL_SLICE_SECONDS } from "./lib/settings";
import { PROBE_WAYS, type ProbeWay, writeProbeBodies } from "./lib/syscall-probe";
import { compare, ensureWrk, measureRotation, ratioWithRange } from "./lib/wrk";

const WAYS = Object.keys(PROBE_WAYS) as ProbeWay[];

/** What decides a system call's price on Linux: whether the kernel isolates its page tables, and whether the CPU tags the TLB (pcid). */
function machineFacts(): string[] {
  const read = (path: string) => (existsSync(path) ? readFileSync(path, "utf8").trim() : "unknown");
  const flags = read("/proc/cpuinfo").match(/^flags\s*:(.*)$/m)?.[1]?.trim().split(/\s+/) ?? [];
  return [
    `kernel ${release()}; Meltdown: ${read("/sys/devices/system/cpu/vulnerabilities/meltdown")}`,
    `CPU flags: pcid ${flags.includes("pcid") ? "yes" : "no"}, invpcid ${flags.includes("invpcid") ? "yes" : "no"}; ${read("/proc/cpuinfo").match(/^model name\s*:(.*)$/m)?.[1]?.trim() ?? ""}`,
  ];
}

cleanUpOnSignals();
const wrkPath = ensureWrk();
const servers: Server[] = [];
try {
  const dir = tempDir("foodapi-bench-syscall-");
  writeProbeBodies(dir);
  for (const way of WAYS) servers.push(await startSyscallServer(way, dir));
  const rotation = await measureRotation(wrkPath, WAYS, servers, "/", WAYS.map(() => ({})), ROUNDS, SYSCALL_SLICE_SECONDS);
  for (const line of machineFacts()) console.log(line);
  const baseline = rotation.sides[0]!.serverCpuMicrosPerRequest ?? NaN;
  const rows = [["way", "req/s", "CPU µs/req", "req/s x memory, median (rounds' range)", "CPU µs/req - memory's", "peak RSS MB"]];
  rotation.sides.forEach((side, i) => {
    const cpu = side.serverCpuMicrosPerRequest ?? NaN;
    rows.push([`${WAYS[i]}: ${PROBE_WAYS[WAYS[i]!]}`, String(side.requestsPerSecond), String(cpu), i === 0 ? "-" : ratioWithRange(compare(rotation, 0, i)), i === 0 ? "-" : String(round(cpu - baseline, 2)), String(side.peakRssPerProcessMb)]);
  });
  printTable(`Bodies of 12-20 KB sent four ways by a bare Bun.serve: ${ROUNDS} rounds of ${SYSCALL_SLICE_SECONDS} s each`, rows);
} finally {
  for (const server of servers) await server.stop();
  cleanup();
}
