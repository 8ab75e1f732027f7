import { isIP } from "../platform/ip-address";
import { createFoodApi, type FoodApi } from "../app/app";
import { systemClock } from "../platform/clock";
import { type Config, ConfigError, withBoundPort } from "../platform/config/config";
import { CannotStart } from "./errors";
import { describeCatalog, openCatalogStore } from "../catalog/catalog-db";
import { openState, stateUnusable } from "../app/state/open-state";
import { createAccessLog } from "../app/http/access-log";
import { loggableError } from "../platform/http/error-mapping";
import { startHttpServer } from "../app/http/server";
import { collectYoungWhileServing } from "../platform/http/young-collection";
import type { MaybePromise } from "../platform/maybe-promise";
import { announce } from "./announce";
import { loadPasswordHashing } from "../accounts/passwords";
import { primaryCollector, workerCollector } from "../metrics/fleet";
import { startWorkers, type WorkerFleet, type WorkerRole, workerRole } from "./workers";

/**
 * `foodapi serve`: one process, or with `--workers N` this process as worker 0 and N-1 more sharing the
 * port. Runs until SIGTERM or SIGINT, then drains in-flight requests and closes the databases.
 */
export async function serve(config: Config): Promise<number> {
  const role = workerRole();
  if (role === null && config.dataDirNotice !== undefined) console.error(config.dataDirNotice);
  if (role === null) await refuseUnresolvableHost(config);
  return serveInProcess(config, role);
}

/** Start-up progress (the catalog's first expansion), on stderr with the other start-up lines, from --log-level info. */
function infoLog(config: Config): ((line: string) => void) | undefined {
  return config.logLevel === "info" || config.logLevel === "debug" ? (line) => console.error(line) : undefined;
}

const logError = (error: unknown) => console.error(JSON.stringify({ time: new Date().toISOString(), level: "error", error: loggableError(error) }));

async function serveInProcess(config: Config, role: WorkerRole | null): Promise<number> {
  // Installed before anything is bound or announced: a SIGTERM that arrives the moment the start-up line
  // is out (a service manager, a test) is a clean stop, not a kill. They stay installed: a second signal
  // (a terminal's SIGINT reaches every process of the group) must not cut the drain short.
  const stopSignal = new Promise<string>((resolve) => {
    process.on("SIGTERM", () => resolve("SIGTERM"));
    process.on("SIGINT", () => resolve("SIGINT"));
  });
  // The data directory first: one that cannot be used is said at once, not after the catalog's first
  // expansion (a second), whose cache directory may even be inside it.
  const state = await openState(config, (line) => console.error(line));
  // The first process expands the embedded catalog (or makes a catalog file's answers) here, before it
  // starts any other worker (below, once its app is built): they find the files made and never race to write them.
  const catalog = await openCatalogStore(config.catalogPath, config.cacheDir, infoLog(config));
  const shutdownTasks: (() => MaybePromise<void>)[] = [];
  const accessLog = createAccessLog((text) => process.stdout.write(text));
  const leading = role === null && config.workers > 1;
  const logsRequests = config.logLevel === "info" || config.logLevel === "debug";
  const youngCollection = collectYoungWhileServing();
  let firstAnswer: (() => void) | undefined;
  const firstAnswered = new Promise<void>((resolve) => {
    firstAnswer = () => {
      firstAnswer = undefined;
      resolve();
    };
  });
  // Bound first, so that the app is built knowing the real port (`--port 0`); a request that arrives
  // before the app is built waits for it.
  let app: FoodApi | undefined;
  let built: Promise<FoodApi> | undefined;
  // SO_REUSEPORT lets this server's own workers share the port, but would let it join any other server
  // of the same user on that port too (the kernel would then split the traffic between two data
  // directories): the first process makes sure the port is free before it binds that way.
  if (leading && config.port !== 0) refuseTakenPort(config);
  const server = bindOrExplain(config, () =>
    startHttpServer({
      hostname: config.host,
      port: config.port,
      clientIpHeader: config.clientIpHeader,
      warn: config.logLevel === "error" ? undefined : (message) => console.error(JSON.stringify({ time: new Date().toISOString(), level: "warn", message })),
      handle: (request) => (app ? app.handle(request) : built!.then((ready) => ready.handle(request))),
      // A request answered before the app is built (it waited for it) is counted by then too.
      observe: config.metricsToken || config.logLevel === "debug" ? (request, status, ms) => app?.observe(request, status, ms) : undefined,
      log: logsRequests ? accessLog.log : undefined,
      logRoute: config.logLevel === "debug",
      idleTimeoutSeconds: config.idleTimeoutSeconds,
      reusePort: role !== null || leading,
      worker: role?.index ?? (leading ? 0 : undefined),
      answered: () => {
        youngCollection.answered();
        firstAnswer?.();
      },
    }),
  );
  config = withBoundPort(config, server.port!);
  let workers: WorkerFleet | undefined;
  // The workers' messages to the first process (metrics/fleet.ts), once the app is built.
  let onWorkerMessage: ReturnType<typeof primaryCollector>["onWorkerMessage"] = () => {};
  try {
    built = createFoodApi({
      config,
      catalog,
      state,
      clock: systemClock,
      logError,
      onShutdown: (task) => shutdownTasks.push(task),
      housekeeping: true,
      composeElysiaLater: true,
      worker: role?.index ?? 0,
      // A scrape gathers every process's counters: a worker asks the first process, which asks them all.
      collectMetrics: (local) => {
        if (role) return workerCollector(local, role);
        const collector = primaryCollector(local, () => workers);
        onWorkerMessage = collector.onWorkerMessage;
        return collector.collect;
      },
    });
    app = await built;
  } catch (error) {
    // Whatever building the app asks of the state (a backend's stores do their own set-up) fails as the state.
    throw stateUnusable(config, error);
  }
  // What no first answer needs waits for this process's first answer (or FIRST_ANSWER_WAIT_MS without one),
  // then a timer, so that the answer is sent first (design §18): the requests that waited at the port for
  // the start (a health check, a load balancer's traffic) are answered before the other workers start
  // (each start takes a core for tens of milliseconds), Elysia's routes are composed or argon2 loads.
  const afterFirstAnswers = Promise.race([firstAnswered, Bun.sleep(FIRST_ANSWER_WAIT_MS)]).then(() => new Promise((resolve) => setTimeout(resolve, 0)));
  // The routes Elysia answers (accounts, keys, trial, dashboard, docs): a request for one that comes sooner
  // composes them itself, and waits for them.
  const composed = app;
  void afterFirstAnswers.then(() => composed.completeRoutes().catch(logError));

  let started = true;
  if (role) {
    role.ready(server.port!);
  } else if (leading) {
    await afterFirstAnswers;
    workers = startWorkers(server.port!, 1, config.workers - 1, (index, message) => onWorkerMessage(index, message));
    started = await workers.ready.then(
      () => true,
      (error) => (console.error(`foodapi: ${(error as Error).message}`), false),
    );
    if (started) announce(config, server.url.origin, config.workers, await describeCatalog(config.catalogPath));
  } else {
    announce(config, server.url.origin, 1, await describeCatalog(config.catalogPath));
  }

  // After the start-up line and the first answers (loading the addon, written to TMPDIR then opened, holds
  // the thread for milliseconds): a failure is said now rather than at the first sign-in.
  if (started && !role) {
    void afterFirstAnswers.then(() =>
      loadPasswordHashing().catch((error) =>
        console.error(`foodapi: passwords cannot be hashed or checked (argon2 did not load: ${(error as Error).message}); sign-up and sign-in answer 500 until it can. Bun writes the addon to TMPDIR to load it: TMPDIR must be writable and allow executables`),
      ),
    );
  }
  const signal = started ? await stopSignal : "start-up failure";
  if (!role) console.error(`${signal}: draining in-flight requests${workers ? ` in ${config.workers} workers` : ""}`);
  const [workersStopped] = await Promise.all([workers?.stop() ?? true, server.stop()]);
  youngCollection.stop();
  for (const task of shutdownTasks) {
    try {
      await task();
    } catch (error) {
      // A store that is down at shutdown loses what was left to write (usage counts): not a reason to hang.
      console.error(JSON.stringify({ time: new Date().toISOString(), level: "error", error: loggableError(error) }));
    }
  }
  accessLog.flush();
  await state.close();
  catalog.close();
  if (!role) console.error("stopped");
  return started && workersStopped ? 0 : 1;
}

/**
 * How long what a start defers (serveInProcess) waits for the first answer before it goes ahead anyway: a
 * request that waited at the port for the start is read within milliseconds of the app being built.
 */
export const FIRST_ANSWER_WAIT_MS = 20;

const portTaken = (config: Config) =>
  new CannotStart(`port ${config.port} on ${config.host} is already in use (another foodapi or another program); stop it, or set --port or PORT`);

/**
 * Binds the port without SO_REUSEPORT for a moment: it fails exactly when anything listens there already.
 * With `Bun.serve`, whose machinery the server binds with next anyway: a `Bun.listen` here cost the start
 * ~5 ms (docs/performance.md, "The later start").
 */
function refuseTakenPort(config: Config): void {
  bindOrExplain(config, () => Bun.serve({ hostname: config.host, port: config.port, fetch: () => new Response(null, { status: 503 }) })).stop(true);
}

/**
 * A host name that does not resolve, said before anything is bound: Bun's listeners each report it their
 * own way (Bun.serve with ENOENT or EINVAL, Bun.listen with an error that has no code at all).
 */
async function refuseUnresolvableHost(config: Config): Promise<void> {
  if (isIP(config.host)) return;
  // Loaded only for a name: an address (the usual case) does not pay for the module at every start.
  const { lookup } = await import("node:dns/promises");
  try {
    await lookup(config.host);
  } catch (error) {
    throw new ConfigError(
      "--host",
      `cannot listen on '${config.host}': the name does not resolve (${(error as NodeJS.ErrnoException).code ?? "no address"}); use 127.0.0.1, 0.0.0.0 or one of this machine's addresses`,
    );
  }
}

/** A bind failure as one line: a port in use (exit 1), or a host this machine cannot listen on (exit 2). */
function bindOrExplain<T>(config: Config, bind: () => T): T {
  try {
    return bind();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") throw portTaken(config);
    // ENOENT: a name that resolved a moment ago (refuseUnresolvableHost) and no longer does.
    if (code === "EINVAL" || code === "EADDRNOTAVAIL" || code === "ENOENT" || code === "ENOTFOUND") {
      throw new ConfigError("--host", `cannot listen on '${config.host}': not an address of this machine (${code}); use 127.0.0.1, 0.0.0.0 or one of its addresses`);
    }
    if (code === "EACCES") throw new CannotStart(`not allowed to listen on port ${config.port} (ports below 1024 need privileges); set --port or PORT`);
    throw error;
  }
}
