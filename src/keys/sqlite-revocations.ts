import type { StateDb } from "../platform/storage/state-db";
import { openRevocationEpoch } from "./sqlite-revocation-epoch";
import { ALL_KEYS, type KeyRevocations } from "./store";

const NO_NEWS: readonly string[] = [];

// Plain SQL over the revocation log (keys/tables.ts `keyRevocations`): every start makes this reader, and
// drizzle, which the store's other queries are built with, loads at their first use (app/state/sqlite-state.ts).
const LATEST = "SELECT max(seq) AS seq FROM key_revocations";
const AFTER = "SELECT seq, key_hash AS keyHash FROM key_revocations WHERE seq > ?1 ORDER BY seq";

/**
 * Revocations among the processes sharing one data directory: the store's revoke writes the log entry in
 * its transaction, `onRevoked` then bumps the memory-mapped epoch. A process whose epoch is behind reads
 * the log entries it has not applied; a gap in them (entries swept while it was idle) means "all".
 */
export function createSqliteKeyRevocations(state: StateDb): KeyRevocations {
  const { sqlite, dataDir } = state;
  const epoch = openRevocationEpoch(dataDir);
  const latest = () => sqlite.query<{ seq: number | null }, []>(LATEST).get()?.seq ?? 0;
  let seenEpoch = epoch.current();
  let appliedSeq = latest();
  return {
    onRevoked: () => epoch.bump(),
    takeRevoked() {
      const now = epoch.current();
      if (now === seenEpoch) return NO_NEWS;
      seenEpoch = now;
      const entries = sqlite.query<{ seq: number; keyHash: string }, [number]>(AFTER).all(appliedSeq);
      if (entries.length === 0 || entries[0]!.seq !== appliedSeq + 1) {
        appliedSeq = Math.max(appliedSeq, latest());
        return "all";
      }
      appliedSeq = entries.at(-1)!.seq;
      const hashes = entries.map((entry) => entry.keyHash);
      return hashes.includes(ALL_KEYS) ? "all" : hashes;
    },
  };
}
