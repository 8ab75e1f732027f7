import { createFoodApi } from "../app";
import { systemClock } from "../clock";
import type { Config } from "../config/config";
import { openCatalog } from "../db/catalog-db";
import { openStateDb } from "../db/state-db";
import { startHttpServer } from "../http/server";

/** `foodapi serve`: runs until SIGTERM or SIGINT, then drains in-flight requests and closes the databases. */
export async function serve(config: Config): Promise<number> {
  const catalog = await openCatalog(config.catalogPath);
  const state = openStateDb(config.dataDir);
  const shutdownTasks: (() => void)[] = [];
  const app = createFoodApi({
    config,
    catalog,
    state,
    clock: systemClock,
    logError: (error) => console.error(JSON.stringify({ time: new Date().toISOString(), level: "error", error: String(error) })),
    onShutdown: (task) => shutdownTasks.push(task),
  });

  const server = startHttpServer({
    hostname: config.host,
    port: config.port,
    clientIpHeader: config.clientIpHeader,
    handle: (request) => app.handle(request),
    log: (entry) => process.stdout.write(`${JSON.stringify(entry)}\n`),
  });
  console.error(`foodapi listening on ${server.url.origin} (data directory ${config.dataDir})`);
  if (config.clientIpHeader) {
    console.error(`client IPs are read from the '${config.clientIpHeader}' header: only safe behind a proxy that sets it`);
  }

  const signal = await new Promise<string>((resolve) => {
    process.once("SIGTERM", () => resolve("SIGTERM"));
    process.once("SIGINT", () => resolve("SIGINT"));
  });
  console.error(`${signal}: draining in-flight requests`);
  await server.stop();
  for (const task of shutdownTasks) task();
  state.sqlite.close();
  catalog.close();
  console.error("stopped");
  return 0;
}
