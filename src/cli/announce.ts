import type { Config } from "../platform/config/config";
import { describeState } from "../app/state/open-state";
import { SERVICE_VERSION } from "../platform/version";

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/i;

/**
 * The start-up line (scripts and tests read the address from it; printed at every log level): version,
 * address, workers, catalog (and where it was expanded, when that is the data directory for want of a
 * home directory: 210 MB nobody asked for there), where the state is, the client-IP rule and what is
 * switched on. Then once, only where it applies and from --log-level warn, the client-IP warning: the
 * default header is Cloudflare's, which anyone can send when clients reach the server directly. On
 * loopback nobody else can; a header the operator chose is their decision.
 */
export function announce(config: Config, origin: string, workers: number, catalog: string): void {
  const clientIp = config.clientIpHeader ? `client IP from header ${config.clientIpHeader}` : "client IP from the TCP peer";
  const where = config.cacheDirInDataDir && config.catalogPath === undefined ? ` in ${config.cacheDir} (no HOME, no --cache-dir)` : "";
  const cors = config.corsOrigins === "*" ? "CORS for any origin" : config.corsOrigins.length > 0 ? `CORS for ${config.corsOrigins.length} origin(s)` : "no CORS";
  console.error(
    `foodapi ${SERVICE_VERSION} listening on ${origin} (${workers} worker${workers > 1 ? "s" : ""}, ${catalog}${where}, ${describeState(config)}, ` +
      `${clientIp}, log level ${config.logLevel}, metrics ${config.metricsToken ? "on" : "off"}, ${cors}, idle timeout ${config.idleTimeoutSeconds}s)`,
  );
  if (config.logLevel !== "error" && config.clientIpHeader && config.clientIpHeaderIsDefault && !LOOPBACK.test(config.host)) {
    console.error(
      `foodapi: client IPs are read from the '${config.clientIpHeader}' header, which Cloudflare sets; if clients reach this server ` +
        `directly, anyone can send it and escape the per-IP limits: set --client-ip-header "" (or the header your proxy sets)`,
    );
  }
}
