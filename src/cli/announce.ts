import type { Config } from "../config/config";

/** The start-up line (scripts and tests read the address from it) and the client-IP warning. */
export function announce(config: Config, origin: string, workers: number): void {
  console.error(`foodapi listening on ${origin} (${workers} worker${workers > 1 ? "s" : ""}, data directory ${config.dataDir})`);
  if (config.clientIpHeader) {
    console.error(`client IPs are read from the '${config.clientIpHeader}' header: only safe behind a proxy that sets it`);
  }
}
