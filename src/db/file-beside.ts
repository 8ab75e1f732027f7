import { closeSync, constants, fchmodSync, fsyncSync, mkdtempSync, openSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * A file written whole before it takes `target`'s name: the backup, a restored state database, the catalog.
 * The file is made inside a new directory beside `target` that `mkdtemp` creates exclusively, under a
 * name nobody can guess, readable by this user only. So another user who can write `target`'s directory
 * (a shared /srv, an output directory of the wrong mode) can neither plant a link for the write to follow
 * nor read the file while it is written, and SQLite, which opens files by path and follows links, may be
 * given the path. Nothing is left behind: `remove()` in a `finally`, after `putInPlace()` or not.
 */
export interface FileBeside {
  /** The new file: empty, with the mode asked for, in a directory only this user can enter. */
  readonly path: string;
  /** Flushes the file, renames it over `target` (a link there is replaced, never followed), flushes the directory. */
  putInPlace(): void;
  /** Removes the file if it is still there, whatever else was made beside it (SQLite's journals), and its directory. */
  remove(): void;
}

/** `mode`: the file's, exactly, whatever the umask (0600 unless it holds nothing private). */
export function createFileBeside(target: string, mode = 0o600): FileBeside {
  const directory = mkdtempSync(join(dirname(target), `.${basename(target)}.partial-`));
  const path = join(directory, basename(target));
  const remove = () => rmSync(directory, { recursive: true, force: true });
  try {
    const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
    try {
      fchmodSync(fd, mode);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    remove();
    throw error;
  }
  return {
    path,
    putInPlace() {
      syncPath(path);
      renameSync(path, target);
      remove();
      // So that the new name survives a crash too. Windows cannot open a directory to flush it (NTFS
      // journals the rename itself).
      if (process.platform !== "win32") syncPath(dirname(target));
    },
    remove,
  };
}

function syncPath(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
