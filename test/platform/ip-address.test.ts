import { expect, test } from "bun:test";
import { isIP as netIsIP } from "node:net";
import { isIP } from "../../src/platform/ip-address";

/** src/platform/ip-address.ts answers plain IPv4 itself and asks node:net the rest: it must answer as node:net does. */
test("isIP answers every text as node:net's isIP does", () => {
  const texts = [
    ...["0.0.0.0", "127.0.0.1", "10.0.0.255", "192.168.1.1", "255.255.255.255", "1.2.3.4", "99.199.249.250"],
    ...["01.2.3.4", "1.2.3.04", "256.1.1.1", "1.2.3", "1.2.3.4.5", "1.2.3.", " 1.2.3.4", "1.2.3.4 ", "1..3.4", "0x7f.0.0.1", "1.2.3.4/8"],
    ...["::", "::1", "::ffff:1.2.3.4", "2001:db8::1", "fe80::1%eth0", "2001:db8:0:0:0:0:0:1", "[::1]", "2001:db8::g"],
    ...["", "localhost", "example.com", "999.1.1.1"],
  ];
  for (let octet = 0; octet <= 256; octet++) texts.push(`${octet}.0.0.1`, `1.1.1.${octet}`);
  expect(texts.map((text) => [text, isIP(text)])).toEqual(texts.map((text) => [text, netIsIP(text)]));
});
