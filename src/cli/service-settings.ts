import { accessSync, constants, existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ConfigError, type Config, loadConfig } from "../platform/config/config";
import { parseEnvFile } from "../platform/config/env-file";
import { type Setting, SETTINGS, SYSTEMD_UNIT } from "../platform/config/settings";

/**
 * The settings of the commands that work on a server's state (keys, users, backup, restore): the
 * service's own where they can be known. On the systemd install, run as root (the unit's env file is
 * 0600 root), they are what deploy/foodapi.service gives `serve`: its env file, then the directories its
 * ExecStart names (a flag there wins over the file, as in the service). The command's own environment wins
 * over both, and its flags over everything; where the env file cannot be read, they are the command's
 * own, as for `serve`. So `foodapi users list`, run as root, works on /var/lib/foodapi with no flag
 * (docs/admin-commands.md).
 */
export function loadAdminConfig(flags: ReadonlyMap<string, string>, env: Readonly<Record<string, string | undefined>>): Config {
  const file = readEnvFile();
  if (file === undefined) return loadConfig(flags, env);
  const unitFlags = Object.entries(SYSTEMD_UNIT.flags).map(([flag, value]) => [envOf(flag), value]);
  const own = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined));
  try {
    return loadConfig(flags, { ...file, ...Object.fromEntries(unitFlags), ...own });
  } catch (error) {
    // A value that came from the file: the message says where it is.
    if (error instanceof ConfigError && error.setting in file && !(error.setting in own)) {
      throw new ConfigError(`${error.setting} in ${SYSTEMD_UNIT.envFile}`, error.message.replace(`invalid ${error.setting}: `, ""));
    }
    throw error;
  }
}

/** The unit's env file, or undefined where there is none or this user cannot read it. */
function readEnvFile(): Record<string, string> | undefined {
  try {
    return parseEnvFile(readFileSync(SYSTEMD_UNIT.envFile, "utf8"));
  } catch {
    return undefined;
  }
}

function envOf(flag: string): string {
  const setting = Object.values(SETTINGS).find((s: Setting) => s.flag === flag);
  if (!setting?.env) throw new Error(`the systemd unit's --${flag} is no setting with a variable (platform/config/settings.ts)`);
  return setting.env;
}

/**
 * Added to "no data directory at …": what the systemd install changes about where to look. The env file
 * there but unreadable: not root, so the service's settings were not read. Read, and the directory is the
 * unit's: the service has not run yet (systemd makes the directory at its first start).
 */
export function serviceSettingsHint(config: Pick<Config, "dataDir">): string {
  if (!existsSync(SYSTEMD_UNIT.envFile)) return "";
  try {
    accessSync(SYSTEMD_UNIT.envFile, constants.R_OK);
  } catch {
    return `; ${SYSTEMD_UNIT.envFile} is there: on the systemd install, run this as root (sudo) to use the service's settings and data directory`;
  }
  return resolve(config.dataDir) === resolve(SYSTEMD_UNIT.flags["data-dir"]) ? "; it is the systemd unit's: start the service once (systemctl start foodapi)" : "";
}
