import { closeSync, constants, fchmodSync, fsyncSync, lstatSync, mkdtempSync, openSync, readdirSync, realpathSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** Why no file is made beside `target`: one line naming the directory, why, and what to do. */
export class DirectoryRefused extends Error {}

/**
 * A file written whole before it takes `target`'s name: the backup, a restored state database, the catalog.
 * The file is made inside a new directory beside `target` that `mkdtemp` creates exclusively, under a
 * name nobody can guess, readable by this user only. So another user can neither plant a link for the
 * write to follow nor read the file while it is written, and SQLite, which opens files by path and follows
 * links, may be given the path. Nothing is left behind: `remove()` in a `finally`, after `putInPlace()` or not.
 *
 * That holds only while nobody else can rename entries on the way to the file: whoever can rename the
 * private directory (write permission on its parent, without the sticky bit, is enough) can put a link to
 * a directory of theirs under its name, and every later step, by path, goes there. So, as OpenSSH's
 * StrictModes does, nothing is made unless `target`'s directory and every directory above it belong to this
 * user or root and can be written by nobody else, or only with the sticky bit (/tmp), which keeps others
 * from renaming what is not theirs; the check then holds for good, as only those owners could change it.
 * (Comparing the file's inode before the rename would not do: SQLite's writes have already gone by path, and
 * the path can change between the comparison and the rename.)
 */
export interface FileBeside {
  /** The new file: empty, with the mode asked for, in a directory only this user can enter. */
  readonly path: string;
  /** Flushes the file, renames it over `target` (a link there is replaced, never followed), flushes the directory. */
  putInPlace(): void;
  /** Removes the file if it is still there, whatever else was made beside it (SQLite's journals), and its directory. */
  remove(): void;
}

export interface FileBesideOptions {
  /**
   * The private directory is made in the parent of `target`'s directory, and only that parent and the
   * directories above it are checked: `target`'s directory may belong to another user. For root writing
   * into a service's directory (a restore into systemd's DynamicUser one), whose owner can rename anything
   * inside it but cannot move the directory itself, so the one rename into it lands there. Both must be on
   * one filesystem.
   */
  readonly inParentDirectory?: boolean;
}

/**
 * `mode`: the file's, exactly, whatever the umask (0600 unless it holds nothing private). Throws
 * DirectoryRefused when the directories on the way can be changed by others (above). Removes the private
 * directories a killed process left where it makes its own (`removeAbandoned`).
 */
export function createFileBeside(target: string, mode = 0o600, options: FileBesideOptions = {}): FileBeside {
  // Every step goes by the path checked, not through a link on the way that someone else could re-point.
  const directory = realpathSync(dirname(target));
  const madeIn = options.inParentDirectory ? dirname(directory) : directory;
  refuseUnsafeDirectories(madeIn, (mode & 0o077) === 0);
  removeAbandoned(madeIn);
  const name = basename(target);
  const final = join(directory, name);
  const privateDirectory = mkdtempSync(join(madeIn, partialDirectoryPrefix(name)));
  const path = join(privateDirectory, name);
  const remove = () => rmSync(privateDirectory, { recursive: true, force: true });
  try {
    // Found now rather than by a rename that fails once the file is written.
    if (statSync(privateDirectory).dev !== statSync(directory).dev) {
      throw new DirectoryRefused(`${directory} is a filesystem of its own (a mount point): the file cannot be written beside it in ${madeIn} and renamed into it; run this as ${directory}'s owner`);
    }
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
      renameSync(path, final);
      remove();
      // So that the new name survives a crash too. Windows cannot open a directory to flush it (NTFS
      // journals the rename itself).
      if (process.platform !== "win32") syncPath(directory);
    },
    remove,
  };
}

/** The private directory's name, before mkdtemp's six random letters and digits. */
function partialDirectoryPrefix(name: string): string {
  return `.${name}.partial-`;
}

/** The name of the target a private directory was made for (`partialDirectoryPrefix` + six), else null. */
function partialDirectoryTarget(entry: string): string | null {
  return /^\.(.+)\.partial-[0-9A-Za-z]{6}$/.exec(entry)?.[1] ?? null;
}

/** The sticky bit (S_ISVTX), which node:fs does not name. */
const STICKY = 0o1000;

/**
 * `privateFile`: a file only this user may read (a backup, the state database) is refused a directory its
 * group can write too. A public one (the catalog) is not: a group that can write there can replace the
 * finished file as well, so the check would protect nothing, and a umask of 002 (user-private groups, as
 * Fedora has them) makes every new directory group-writable, `build.sh`'s dist/ among them.
 */
function refuseUnsafeDirectories(directory: string, privateFile: boolean): void {
  const unsafeBits = privateFile ? 0o022 : 0o002;
  // Modes and owners mean nothing there: ACLs decide who may rename what.
  if (process.platform === "win32") return;
  const me = process.geteuid!();
  for (let path = directory; ; path = dirname(path)) {
    const { mode, uid } = statSync(path);
    if (uid !== me && uid !== 0) {
      throw new DirectoryRefused(
        `${path} belongs to another user (uid ${uid}), who could replace the private directory the file is written in with a link to one of theirs; use a directory of this user's (uid ${me}) or root's, or run this as uid ${uid}`,
      );
    }
    if ((mode & unsafeBits) !== 0 && (mode & STICKY) === 0) {
      const who = mode & 0o002 ? "other users" : "its group";
      throw new DirectoryRefused(
        `${path} can be written by ${who} (mode ${(mode & 0o7777).toString(8).padStart(4, "0")}) and has no sticky bit, so they could replace the private directory the file is written in with a link to one of theirs; use a directory only you can write (chmod go-w), or one with the sticky bit as /tmp has`,
      );
    }
    if (dirname(path) === path) return;
  }
}

/**
 * No write leaves a private directory untouched this long, even a backup of a large database (SQLite writes
 * the copy as it goes); the catalog's expansion, the slowest under qemu, is over in ~13 s.
 */
const ABANDONED_AFTER_MS = 10 * 60_000;

/**
 * Removes the private directories left in `directory` by a process killed before its `remove()` (SIGKILL,
 * a crash, Ctrl-C during a backup): a backup copy or a catalog each time. Only what is unmistakably one:
 * this user's, named as `partialDirectoryPrefix` names them, holding nothing but files named after their
 * target (the file and SQLite's journals), none changed for ABANDONED_AFTER_MS (one being written is newer).
 * Safe by path: `directory` passed `refuseUnsafeDirectories`, so nobody else can swap these entries.
 */
function removeAbandoned(directory: string): void {
  const me = process.geteuid?.();
  const before = Date.now() - ABANDONED_AFTER_MS;
  for (const entry of readdirSync(directory)) {
    const target = partialDirectoryTarget(entry);
    if (target === null) continue;
    const path = join(directory, entry);
    try {
      const found = lstatSync(path);
      if (!found.isDirectory() || (me !== undefined && found.uid !== me) || found.mtimeMs > before) continue;
      const inside = readdirSync(path).map((file) => ({ file, stat: lstatSync(join(path, file)) }));
      const abandoned = inside.every(({ file, stat }) => stat.isFile() && file.startsWith(target) && stat.mtimeMs <= before);
      if (abandoned) rmSync(path, { recursive: true, force: true });
    } catch {
      // Gone meanwhile (another process removed it), or not ours to read: left as it is.
    }
  }
}

function syncPath(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
