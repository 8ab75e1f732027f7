import { closeSync, constants, fchmodSync, fchownSync, fstatSync, openSync, statSync } from "node:fs";
import { join } from "node:path";
import { DataDirUnusable } from "./storage-fault";

/** The state database's file in the data directory (backups restore into it: app/state/state-backup.ts). */
export const STATE_FILE_NAME = "state.sqlite";

/**
 * Opens (or creates) a file of the data directory the way SQLite opens its own there: never through a
 * symbolic link, since whoever owns the directory could point one at any file, and, run as root in a
 * directory another user owns, a file it creates is given the directory's owner, as SQLite gives its -wal
 * and -shm files the database's. That is an admin command run by root on the state of a service running
 * as its own user (systemd's DynamicUser): a file left owned by root would stop the service from opening
 * its state at its next start. The file gets `mode` whatever the umask. Returns the open descriptor, or
 * undefined when `create` is false and there is no such file.
 */
export function openDataFile(dataDir: string, name: string, options: { readonly mode: number; readonly create: boolean }): number | undefined {
  const path = join(dataDir, name);
  // O_NONBLOCK: a FIFO put there opens at once (and is refused below) instead of hanging the process.
  const flags = constants.O_RDWR | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  let fd: number;
  let created = false;
  try {
    if (options.create) {
      try {
        fd = openSync(path, flags | constants.O_CREAT | constants.O_EXCL, options.mode);
        created = true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        fd = openSync(path, flags);
      }
    } else {
      fd = openSync(path, flags);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && !options.create) return undefined;
    if (code === "ELOOP") throw notAFile(dataDir, name);
    throw error;
  }
  try {
    const file = fstatSync(fd);
    if (!file.isFile()) throw notAFile(dataDir, name);
    if ((file.mode & 0o777) !== options.mode) fchmodSync(fd, options.mode);
    if (created) giveDirectoryOwner(fd, dataDir);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** Root creating a file in a directory another user owns: the file is that user's (and group's). */
function giveDirectoryOwner(fd: number, dataDir: string): void {
  if (process.geteuid?.() !== 0) return;
  const { uid, gid } = statSync(dataDir);
  if (uid !== 0) fchownSync(fd, uid, gid);
}

const notAFile = (dataDir: string, name: string) =>
  new DataDirUnusable(
    `cannot use data directory ${dataDir}: ${name} there is not a regular file (a symbolic link, a directory or a device); foodapi follows no link in its data directory: move it away`,
  );
