import { chmodSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

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
  const path = join(dataDir, "keys.epoch");
  // mmap cannot map an empty file: create it with room for the counter (several workers may race here).
  try {
    writeFileSync(path, Buffer.alloc(SIZE), { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    if (statSync(path).size < SIZE) writeFileSync(path, Buffer.alloc(SIZE), { mode: 0o600 });
  }
  // Owner read and write whatever the umask: the shared mapping needs both, and nobody else needs either.
  chmodSync(path, 0o600);
  const bytes = Bun.mmap(path, { shared: true });
  const counter = new Int32Array(bytes.buffer, bytes.byteOffset, 1);
  return {
    current: () => Atomics.load(counter, 0),
    bump: () => void Atomics.add(counter, 0, 1),
  };
}
