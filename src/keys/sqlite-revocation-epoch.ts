import { closeSync, fstatSync, ftruncateSync } from "node:fs";
import { join } from "node:path";
import { openDataFile } from "../platform/storage/data-files";

/**
 * A counter shared by every process on the data directory through a memory-mapped file, bumped after
 * each revocation commits. Key records cached by a process are trusted only while the counter is
 * unchanged, so a revoked key fails on the very next request in every worker while the common case costs
 * a memory read instead of a database query.
 */
export interface RevocationEpoch {
  current(): number;
  bump(): void;
}

const SIZE = 8;

export function openRevocationEpoch(dataDir: string): RevocationEpoch {
  // Owner read and write whatever the umask (the shared mapping needs both, nobody else either), never
  // through a link, and given the directory's owner when root makes it (platform/storage/data-files.ts).
  const fd = openDataFile(dataDir, "keys.epoch", { mode: 0o600, create: true })!;
  let bytes: Uint8Array;
  try {
    // mmap cannot map an empty file: room for the counter (several workers may race here; all write zeros).
    if (fstatSync(fd).size < SIZE) ftruncateSync(fd, SIZE);
    // The file just opened, not whatever the name points to by now (Linux: the descriptor's own path).
    bytes = Bun.mmap(process.platform === "linux" ? `/proc/self/fd/${fd}` : join(dataDir, "keys.epoch"), { shared: true });
  } finally {
    closeSync(fd);
  }
  const counter = new Int32Array(bytes.buffer, bytes.byteOffset, 1);
  return {
    current: () => Atomics.load(counter, 0),
    bump: () => void Atomics.add(counter, 0, 1),
  };
}
