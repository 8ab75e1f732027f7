import type { Config } from "../config/config";
import { describeState } from "../db/open-state";

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/i;

/**
 * The start-up line (scripts and tests read the address from it), and once, only where it applies, the
 * client-IP warning: the default header is Cloudflare's, which anyone can send when clients reach the
 * server directly. On loopback nobody else can; a header the operator chose is their decision.
 */
export function announce(config: Config, origin: string, workers: number): void {
  console.error(`foodapi listening on ${origin} (${workers} worker${workers > 1 ? "s" : ""}, ${describeState(config)})`);
  if (config.clientIpHeader && config.clientIpHeaderIsDefault && !LOOPBACK.test(config.host)) {
    console.error(
      `foodapi: client IPs are read from the '${config.clientIpHeader}' header, which Cloudflare sets; if clients reach this server ` +
        `directly, anyone can send it and escape the per-IP limits: set --client-ip-header "" (or the header your proxy sets)`,
    );
  }
}
