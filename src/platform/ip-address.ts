/** A dotted quad, each part 0-255 without leading zeros: the IPv4 addresses node:net's `isIP` takes. */
const DOTTED_QUAD = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

let net: typeof import("node:net") | undefined;

/**
 * node:net's `isIP` (4, 6, or 0 for neither), which answers a plain IPv4 address (the usual --host and peer)
 * without loading node:net: this module runs at every start of a server (the configuration checks --host),
 * so node:net imported at its top would be loaded by each start, and with the stream machinery it brings
 * it costs milliseconds.
 */
export function isIP(text: string): number {
  if (DOTTED_QUAD.test(text)) return 4;
  net ??= process.getBuiltinModule("node:net");
  return net.isIP(text);
}
