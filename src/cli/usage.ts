import { SETTINGS, SYSTEMD_UNIT } from "../platform/config/settings";

/**
 * The usage text of the admin commands, apart from their code: `foodapi help` shows it without loading the
 * stores (subcommands load on demand, main.ts).
 */

/** Where every command on a server's state finds it (cli/service-settings.ts). */
const WHERE_THE_STATE_IS = `Where the state is: the data directory (--data-dir or FOODAPI_DATA_DIR; default: ${SETTINGS.dataDir.unset}),
or PostgreSQL (--state-url or FOODAPI_STATE_URL); pass the server's --redis-url (FOODAPI_REDIS_URL) too, if it has one.
Where ${SYSTEMD_UNIT.envFile} is readable (the systemd install, run as root), the service's settings are used: that
file and the unit's --data-dir ${SYSTEMD_UNIT.flags["data-dir"]}; this command's own variables and flags still win. Run as root, a
file it makes in the data directory is given the directory's owner, so the service can still open it.`;

export const KEYS_USAGE = `Usage: foodapi keys create --email E --name N [--json]
       foodapi keys list [--email E] [--json]
       foodapi keys revoke ID [--json]

API keys in the state a server uses (a data directory must exist: start the server once first).
A change reaches a running server's next request.

${WHERE_THE_STATE_IS}

  create  issues a key for E (creating the account, without a password, if needed); the key is the only line on stdout
  list    the active keys, newest first: of every account, or of E's
  revoke  revokes the key with this id (from 'keys list'): refused from the next request on

--json prints one JSON document (shapes in the README). Exit codes: 0 done, 1 no such account or key (or E has
the maximum of active keys, or is disabled), 2 a usage error.
`;

export const USERS_USAGE = `Usage: foodapi users list [--json]
       foodapi users disable EMAIL [--json]
       foodapi users enable EMAIL [--json]
       foodapi users set-password EMAIL [--json]   (the new password on stdin)

Accounts in the state a server uses (a data directory must exist: start the server once first).
A change reaches a running server's next request.

${WHERE_THE_STATE_IS}

  list          every account: e-mail, name, status, whether it has a password, active keys
  disable       ends its sessions; its keys get 401 and sign-in gets 403 BANNED_USER until enabled
  enable        undoes disable: its keys work again and it can sign in
  set-password  sets the password read from stdin (one line; 8 to 128 characters) and ends its sessions

--json prints one JSON document (shapes in the README). Exit codes: 0 done, 1 no such account, 2 a usage error.
`;

export const BACKUP_USAGE = `Usage: foodapi backup --out FILE [--data-dir DIR] [--json]

Writes a consistent copy of the state database (<data-dir>/state.sqlite: accounts, sessions, key hashes, trial
state, counters and the trial secret) to FILE, while a server runs on it: SQLite's VACUUM INTO, in one read
transaction, so the copy is the database as of one moment, and writers are not stopped. FILE appears only once
complete (written beside it, then renamed) and is readable by its owner only (0600); an existing FILE is replaced.
With PostgreSQL (--state-url) use pg_dump instead: this says so and exits 2.

${WHERE_THE_STATE_IS}

--json prints {"file","bytes","schemaVersion"}. Exit codes: 0 done, 1 the copy failed, 2 a usage error.
`;

export const RESTORE_USAGE = `Usage: foodapi restore FILE [--data-dir DIR] [--json]

Puts the backup FILE in place as the data directory's state database, with the server stopped. FILE is checked
first: SQLite's integrity check, a foodapi state database, a schema version this binary knows (an older one is
migrated when the server starts). The state it replaces is kept beside it as state.sqlite.replaced-<time>, and
the line printed says where. Refused while any process uses the data directory (a server, a worker, another
command). The data directory is created (0700) if it is not there.
With PostgreSQL (--state-url) use pg_restore instead: this says so and exits 2.

${WHERE_THE_STATE_IS}

--json prints {"stateFile","restoredFrom","replacedStateKeptAt","schemaVersion"}. Exit codes: 0 restored,
1 refused (a bad file, a server running) with nothing changed, 2 a usage error.
`;
