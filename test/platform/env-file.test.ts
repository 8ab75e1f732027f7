import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEnvFile } from "../../src/platform/config/env-file";
import { ROOT } from "../helpers/paths";

/** An env file read as systemd's EnvironmentFile= reads it (the admin commands read the unit's: cli/service-settings.ts). */
test("comments, blank lines and lines without '=' are skipped; whitespace around a value dropped; quotes taken off; a backslash continues a line", () => {
  const text = [
    "# a comment",
    "; another",
    "",
    "PORT=3001",
    "  HOST = 127.0.0.2  ",
    "FOODAPI_BASE_URL='https://food.example.org'",
    'FOODAPI_CORS_ORIGINS="https://a.example, https://b.example"',
    'QUOTED="say \\"hi\\""',
    "NOT A LINE",
    "1BAD=x",
    "INLINE=value # not a comment to systemd",
    "LONG=first\\",
    "second",
    "PORT=3002",
  ].join("\n");
  expect(parseEnvFile(text)).toEqual({
    PORT: "3002",
    HOST: "127.0.0.2",
    FOODAPI_BASE_URL: "https://food.example.org",
    FOODAPI_CORS_ORIGINS: "https://a.example, https://b.example",
    QUOTED: 'say "hi"',
    INLINE: "value # not a comment to systemd",
    LONG: "firstsecond",
  });
});

test("deploy/foodapi.env.example, as shipped, sets nothing: every line in it is a comment", () => {
  expect(parseEnvFile(readFileSync(join(ROOT, "deploy/foodapi.env.example"), "utf8"))).toEqual({});
  expect(parseEnvFile("A=1\r\nB=2\r\n")).toEqual({ A: "1", B: "2" });
});
