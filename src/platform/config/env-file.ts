/**
 * The variables of an env file as systemd's `EnvironmentFile=` reads it (systemd.exec(5)): one `NAME=value`
 * a line; blank lines, lines starting with `#` or `;`, and lines without `=` ignored; a line ending in a
 * backslash continued on the next; whitespace around the value dropped; a value wholly in single or double
 * quotes taken without them (inside double quotes, a backslash escapes the next character). A name that
 * is not a variable name is skipped, as systemd skips it. Later lines win.
 */
export function parseEnvFile(text: string): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const line of text.replace(/\\\r?\n/g, "").split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#") || trimmed.startsWith(";")) continue;
    const eq = trimmed.indexOf("=");
    if (eq === -1) continue;
    const name = trimmed.slice(0, eq).trim();
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) continue;
    variables[name] = unquote(trimmed.slice(eq + 1).trim());
  }
  return variables;
}

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1);
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) return value.slice(1, -1).replace(/\\(.)/g, "$1");
  return value;
}
