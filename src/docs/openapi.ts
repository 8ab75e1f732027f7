import { DATA_CACHE_CONTROL } from "../platform/http/cached-response";
import { toOpenAPISchema } from "@elysiajs/openapi/openapi";
import { SESSION_COOKIE, SESSION_TTL_SECONDS } from "../accounts/sessions";
import type { RateSpec } from "../platform/config/config";
import { MAX_BODY_BYTES } from "../platform/http/body-limit";
import { MAX_HEAD_BYTES } from "../platform/http/head-limit";
import type { Route } from "../platform/http/route";
import { type OperationNotes, withoutNotes } from "../platform/http/route-notes";
import { documentedSchema } from "../platform/http/schema";
import { TRIAL_ALLOWANCE, TRIAL_TOKEN_LIFETIME_SECONDS, TRIAL_TOKEN_REQUESTS } from "../trial/token";
import { type ErrorRows, shellErrors } from "./operations";
import overview from "./overview.md" with { type: "text" };

type Json = Record<string, any>;

const OPENAPI_VERSION = "3.1.0";

export interface DocumentOptions {
  serverUrl: string;
  version: string;
  freeLimit: RateSpec;
  /** Every error a route may name, as the composition root puts them together (src/app/error-catalog.ts). */
  errors: ErrorRows;
}

const TRIAL_POLICY = `"trial";q=${TRIAL_TOKEN_REQUESTS};w=${TRIAL_TOKEN_LIFETIME_SECONDS}`;
const freePolicy = (free: RateSpec) => `"free";q=${free.limit};w=${free.windowSeconds}`;

const SECURITY_SCHEMES = {
  apiKey: {
    type: "apiKey",
    in: "header",
    name: "X-API-Key",
    description: "An API key (`fnk_…`), issued in the dashboard or with `POST /v1/keys`. Wins when a bearer token is sent too.",
  },
  trialToken: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "foodapi trial token",
    description: `A trial token from \`POST /v1/trial-token\`: ${TRIAL_ALLOWANCE}, no account.`,
  },
  sessionCookie: {
    type: "apiKey",
    in: "cookie",
    name: SESSION_COOKIE,
    description: `Set by sign-up and sign-in (\`HttpOnly; SameSite=Lax; Path=/\`, \`Secure\` over https), valid ${SESSION_TTL_SECONDS / 86400} days. For the dashboard and key management only.`,
  },
};

const SECURITY = {
  none: [],
  apiKeyOrTrial: [{ apiKey: [] }, { trialToken: [] }],
  session: [{ sessionCookie: [] }],
  optionalSession: [{ sessionCookie: [] }, {}],
} satisfies Record<OperationNotes["credential"], Json[]>;

/** Each header is sent on every response that lists it: `required`, so a client may rely on it. */
function headers(freeLimit: RateSpec) {
  return {
    "RateLimit-Policy": {
      description: `The quota of the credential (IETF draft-ietf-httpapi-ratelimit-headers): \`${freePolicy(freeLimit)}\` for a key, \`${TRIAL_POLICY}\` for a trial token.`,
      required: true,
      schema: { type: "string" },
      example: freePolicy(freeLimit),
    },
    RateLimit: {
      description: "`r`: requests left; `t`: seconds until more are available (for a trial token: until it expires).",
      required: true,
      schema: { type: "string" },
      example: `"free";r=${freeLimit.limit - 2};t=3412`,
    },
    "Retry-After": { description: "Seconds to wait before retrying.", required: true, schema: { type: "integer", minimum: 1 } },
    ETag: {
      description:
        "Strong entity tag of the answer, the same for the same answer across restarts and instances of one build. A coded answer's tag ends in `-zstd`, `-br` or `-gzip`; `If-None-Match` with any of them is a match.",
      required: true,
      schema: { type: "string" },
      example: '"fi5-2kzjv1tcxuc4e-zstd"',
    },
    "Cache-Control": {
      description: "SR28 does not change within a build: the answer may be kept by the client for a day.",
      required: true,
      schema: { type: "string" },
      example: DATA_CACHE_CONTROL,
    },
    Vary: { description: "The answer depends on `Accept-Encoding`.", required: true, schema: { type: "string" }, example: "Accept-Encoding" },
    "Content-Encoding": {
      description: "`zstd`, `br` or `gzip` by the request's `Accept-Encoding` (q-values honoured); absent for identity. Bodies under 1 KiB are sent as they are.",
      required: false,
      schema: { type: "string", enum: ["zstd", "br", "gzip"] },
    },
    "WWW-Authenticate": { description: "On every 401 of the data routes.", required: true, schema: { type: "string" }, example: 'Bearer realm="foodapi"' },
    "Cache-Control-No-Store": {
      description: "The answer is about an account: no cache may keep it. Every answer of a route that takes the session cookie.",
      required: true,
      schema: { type: "string", const: "no-store" },
    },
    "Set-Cookie": {
      description: "The session cookie: set by sign-up and sign-in, cleared (`Max-Age=0`) by sign-out.",
      required: true,
      schema: { type: "string" },
      example: `${SESSION_COOKIE}=<token>; Max-Age=${SESSION_TTL_SECONDS}; Path=/; HttpOnly; SameSite=Lax`,
    },
    "Set-Cookie-When-Changed": {
      description:
        "The session cookie, when this call changed the caller's session: a fresh one (change-password with `revokeOtherSessions`), or cleared (`Max-Age=0`) when the caller's own session was ended.",
      required: false,
      schema: { type: "string" },
      example: `${SESSION_COOKIE}=<token>; Max-Age=${SESSION_TTL_SECONDS}; Path=/; HttpOnly; SameSite=Lax`,
    },
  };
}

const ERROR_SCHEMA = {
  type: "object",
  description: "The one error shape of every 4xx and 5xx.",
  required: ["code", "message"],
  additionalProperties: false,
  properties: {
    code: { type: "string", pattern: "^[A-Z][A-Z0-9_]*$", description: "Stable, UPPER_SNAKE; switch on this." },
    message: { type: "string", description: "A sentence for a human." },
  },
};

const STATUS_NAMES: Readonly<Record<string, string>> = { "200": "OK", "201": "Created", "304": "Not Modified" };

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/**
 * The OpenAPI document of the route table's routes (src/platform/http/route-table.ts), direct and Elysia's
 * alike: paths and schemas generated by @elysiajs/openapi from the routes' `t` schemas and `detail`, then
 * given what schemas cannot carry (credentials, errors, headers, examples), from the notes each route
 * declares (src/platform/http/route-notes.ts). Hidden routes (pages and their files, this document,
 * `/metrics`) are not API routes and stay out.
 */
export function buildOpenApiDocument(routes: readonly Route[], options: DocumentOptions): Json {
  const documented = routes.filter((route) => !route.hidden);
  const generated = toOpenAPISchema(generatorView(documented), undefined, undefined, undefined, OPENAPI_VERSION);
  const byOperation = new Map(documented.map((route) => [operationKey(route.method, route.template), route]));
  const paths: Json = {};
  for (const [path, item] of Object.entries(generated.paths as Json)) {
    for (const [method, operation] of Object.entries(item as Json)) {
      const route = byOperation.get(operationKey(method, path));
      paths[path] ??= {};
      paths[path][method] = describeOperation(method, operation, route?.notes, options.errors);
      // A direct route answers HEAD as its GET: same parameters and statuses, no body.
      if (method === "get" && route?.handle) [paths[path].get, paths[path].head] = withHead(paths[path][method]);
    }
  }
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: "foodapi",
      version: options.version,
      description: fillOverview(options),
      license: { name: "MIT (the service); the SR28 data is public domain", identifier: "MIT" },
    },
    servers: [{ url: options.serverUrl }],
    tags: [
      { name: "Catalog", description: "The SR28 data: an API key or a trial token on every request." },
      { name: "Analysis", description: "A recipe's nutrition from its ingredient lines, and food names as they are typed: an API key or a trial token." },
      { name: "Trial", description: "A trial token without an account, for a solved proof-of-work challenge." },
      { name: "Accounts", description: "Sign-up, sign-in and the session cookie (Better Auth's shapes)." },
      { name: "API keys", description: "The signed-in account's keys: issue, list, revoke." },
      { name: "Public", description: "No credential." },
    ],
    paths,
    components: {
      schemas: { ...generated.components.schemas, Error: ERROR_SCHEMA },
      securitySchemes: SECURITY_SCHEMES,
      headers: headers(options.freeLimit),
    },
  };
}

/** overview.md with its `{{fact}}` placeholders filled from the constants the server uses. */
function fillOverview(options: DocumentOptions): string {
  const facts: Record<string, string> = {
    maxBodyKiB: String(MAX_BODY_BYTES / 1024),
    maxHeadKiB: String(MAX_HEAD_BYTES / 1024),
    sessionDays: String(SESSION_TTL_SECONDS / 86400),
    freePolicy: freePolicy(options.freeLimit),
    freeRemaining: `"free";r=${options.freeLimit.limit - 2};t=${Math.min(3412, options.freeLimit.windowSeconds)}`,
    trialPolicy: TRIAL_POLICY,
    trialRemaining: `"trial";r=${TRIAL_TOKEN_REQUESTS - 1};t=${TRIAL_TOKEN_LIFETIME_SECONDS - 1}`,
    trialAllowance: TRIAL_ALLOWANCE,
  };
  return overview.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    if (!(name in facts)) throw new Error(`overview.md: no fact named ${name}`);
    return facts[name]!;
  });
}

/**
 * The routes as the generator reads an Elysia app's (`getGlobalRoutes`, all it asks of one), adjusted. The
 * body and query schemas are the documented ones (Elysia validates lenient copies of them;
 * src/platform/http/schema.ts). And the generator lists a body under every content type a route's parser
 * takes; this API has one parser (the shell's, JSON only), which the generator cannot see through: hiding
 * the parser makes it list the body schema, and `describeOperation` keeps only its JSON entry. The notes
 * stay behind, read by `buildOpenApiDocument` itself.
 */
function generatorView(routes: readonly Route[]): Parameters<typeof toOpenAPISchema>[0] {
  const view = {
    getGlobalRoutes: () =>
      routes.map(({ method, template, hooks }) => ({
        method,
        path: template,
        hooks: {
          ...hooks,
          parse: undefined,
          body: documentedSchema(hooks.body),
          query: documentedSchema(hooks.query),
          params: documentedSchema(hooks.params),
          detail: withoutNotes(hooks.detail as Json | undefined),
        },
      })),
  };
  return view as unknown as Parameters<typeof toOpenAPISchema>[0];
}

/** `GET /v1/foods/{foodNumber}`: an operation as the document names it, from Elysia's `get` and `/v1/foods/:foodNumber`. */
const operationKey = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/:([^/]+)/g, "{$1}")}`;

/**
 * Every operation `routes` answer as an API (`GET /v1/foods/{foodNumber}`), sorted: a direct GET's GET and
 * HEAD, every other route's method, but not the hidden routes (pages, their files, the document, `/metrics`).
 */
export function servedOperations(routes: readonly Route[]): string[] {
  const operations = routes
    .filter((route) => !route.hidden)
    .flatMap(({ method, template, handle }) => {
      const operation = operationKey(method, template);
      return handle && method === "GET" ? [operation, operationKey("HEAD", template)] : [operation];
    });
  return [...new Set(operations)].sort();
}

/** Every operation in `document`, sorted, as `servedOperations` names them. */
export function documentedOperations(document: Json): string[] {
  return Object.entries(document.paths as Json)
    .flatMap(([path, item]) => Object.keys(item as Json).map((method) => operationKey(method, path)))
    .sort();
}

/**
 * The operations `routes` answer that `document` does not describe: missing from it (a document built from
 * other routes), or there only as generated, without its notes (no credential, no errors; with notes an
 * operation always has `security`, if only `[]`). Empty for a sound app.
 */
export function undocumentedOperations(routes: readonly Route[], document: Json): string[] {
  const described = new Set<string>();
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const [method, operation] of Object.entries(item as Json)) if (Array.isArray(operation.security)) described.add(operationKey(method, path));
  }
  return servedOperations(routes).filter((operation) => !described.has(operation));
}

function describeOperation(method: string, operation: Json, notes: OperationNotes | undefined, known: ErrorRows): Json {
  const described: Json = { ...operation };
  if (described.requestBody) {
    const json = described.requestBody.content?.["application/json"] ?? { schema: {} };
    if (notes?.requestExample !== undefined) json.example = notes.requestExample;
    described.requestBody = { ...described.requestBody, content: { "application/json": json } };
  }
  if (!notes) return described;

  described.security = SECURITY[notes.credential];
  const dataRoute = notes.credential === "apiKeyOrTrial";
  const sessionRoute = notes.credential === "session" || notes.credential === "optionalSession";
  const responses: Json = { ...described.responses };
  for (const [status, extra] of Object.entries(notes.responses ?? {})) {
    responses[status] = {
      ...responses[status],
      description: extra.description,
      ...(extra.schema || extra.media
        ? { content: { ...responses[status]?.content, ...(extra.schema ? { "application/json": { schema: extra.schema, example: extra.example } } : {}), ...extra.media } }
        : {}),
    };
  }
  for (const [status, response] of Object.entries(responses)) {
    // The generator's "Response for status 200" says nothing; the status's own name says as much, shorter.
    if (/^Response for status/.test(response.description ?? "")) responses[status] = { ...response, description: STATUS_NAMES[status] ?? "Success" };
  }
  for (const [status, example] of Object.entries(notes.examples ?? {})) {
    const content = responses[status]?.content?.["application/json"];
    if (content) content.example = example;
  }
  const errors = [...new Set([...notes.errors, ...shellErrors(method)])];
  for (const [status, response] of Object.entries(errorResponses(errors, known))) responses[status] = response;
  if (dataRoute && method === "get") {
    responses["304"] = {
      description: "Not Modified: `If-None-Match` names this answer. No body; counted against the quota like a 200.",
    };
  }
  for (const [status, response] of Object.entries(responses)) {
    const extraHeaders: Json = { ...response.headers };
    if (dataRoute && status === "200") {
      Object.assign(extraHeaders, { ETag: headerRef("ETag"), "Cache-Control": headerRef("Cache-Control"), Vary: headerRef("Vary"), "Content-Encoding": headerRef("Content-Encoding") });
    }
    if (dataRoute && status === "304") Object.assign(extraHeaders, { ETag: headerRef("ETag"), "Cache-Control": headerRef("Cache-Control"), Vary: headerRef("Vary") });
    if (dataRoute && passedTheGuard(status)) Object.assign(extraHeaders, { "RateLimit-Policy": headerRef("RateLimit-Policy"), RateLimit: headerRef("RateLimit") });
    if (dataRoute && status === "401") extraHeaders["WWW-Authenticate"] = headerRef("WWW-Authenticate");
    if (sessionRoute && status.startsWith("2")) extraHeaders["Cache-Control"] = headerRef("Cache-Control-No-Store");
    if (notes.setsCookie && status === "200") extraHeaders["Set-Cookie"] = headerRef(notes.setsCookie === "whenChanged" ? "Set-Cookie-When-Changed" : "Set-Cookie");
    responses[status] = Object.keys(extraHeaders).length > 0 ? { ...response, headers: extraHeaders } : response;
  }
  described.responses = sortedByStatus(responses);
  return described;
}

/**
 * A data route's response carries RateLimit headers once the guard has admitted the credential: not a
 * 401 (no principal), nor what is answered before the guard or without its counter (413, 503).
 */
const passedTheGuard = (status: string) => !["401", "413", "503"].includes(status);

const sortedByStatus = (responses: Json): Json => Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));

const HEAD_NOTE = "`HEAD` answers as `GET` does, with the same headers and statuses and no body.";

/**
 * A GET operation that says HEAD is answered too, and that HEAD: the same parameters, statuses and headers,
 * without the bodies. The HEAD stays in the document (clients and the contract checks read it) but out of
 * /docs (`x-scalar-ignore`), where it listed each data route twice; its GET says it instead.
 */
function withHead(get: Json): [Json, Json] {
  const responses: Json = {};
  for (const [status, { content: _body, ...response }] of Object.entries(get.responses as Json)) responses[status] = response;
  const head = {
    ...get,
    operationId: get.operationId?.replace(/^get/, "head"),
    summary: `${get.summary} (headers only)`,
    responses,
    "x-scalar-ignore": true,
  };
  return [{ ...get, description: get.description ? `${get.description}\n\n${HEAD_NOTE}` : HEAD_NOTE }, head];
}

/** One response per status, each error code of that status as a named example of the `Error` shape. */
function errorResponses(names: readonly string[], known: ErrorRows): Json {
  const byStatus: Json = {};
  for (const name of names) {
    const row = known[name];
    if (!row) throw new Error(`A route names the error ${name}, which no table of the catalogue declares`);
    const [status, message, code = name] = row;
    const response = (byStatus[status] ??= {
      description: "",
      // Every 429 of this API says when to retry, and so does the 503 of an unavailable challenge verifier.
      ...(status === 429 || status === 503 ? { headers: { "Retry-After": headerRef("Retry-After") } } : {}),
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" }, examples: {} } },
    });
    response.content["application/json"].examples[name] = { summary: code, value: { code, message } };
  }
  for (const response of Object.values(byStatus)) {
    response.description = `Error: ${Object.values(response.content["application/json"].examples as Json).map((e) => e.summary).join(", ")}`;
  }
  return byStatus;
}
