import { decodeContent } from "./content-coding";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";

/**
 * The contract check: a response is held against the OpenAPI document the server serves. Its operation is
 * found by method and path (path templates; a trailing slash is the same operation), its status must be
 * documented there, its JSON body must be valid against that status's schema and its documented headers
 * against theirs, with a standard JSON Schema validator (ajv, draft 2020-12). A response to no documented
 * operation (unknown routes, pages, their files) is only held to the error shape when it is a JSON 4xx/5xx.
 * Nothing here knows a shape: everything is read from the document.
 */

type Json = Record<string, any>;

export class ContractViolation extends Error {
  override name = "ContractViolation";
}

interface RequestLine {
  method: string;
  url: string;
}

export interface Contract {
  readonly document: Json;
  /** The operation `method url` is, or undefined: `{path, method, operation}`. */
  operationOf(request: RequestLine): { path: string; method: string; operation: Json } | undefined;
  /** Throws a ContractViolation naming the operation, the status and ajv's errors. Leaves `response` unread. */
  check(request: RequestLine, response: Response): Promise<void>;
  /** The same over a body already read (for callers that consume the response themselves). */
  checkText(request: RequestLine, response: { status: number; headers: Headers }, body: string): void;
}

const DOCUMENT_ID = "https://foodapi.test/openapi.json";
const pointer = (...segments: string[]) => segments.map((s) => s.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");

const contracts = new WeakMap<Json, Contract>();

/** The compiled contract of a document (compiled once per document). */
export function contractOf(document: Json): Contract {
  let contract = contracts.get(document);
  if (!contract) contracts.set(document, (contract = compileContract(document)));
  return contract;
}

/** ajv over the whole document, so that every `$ref` resolves against it; schemas compiled on first use. */
export function createAjv(document: Json): Ajv2020 {
  // strict: false, because OpenAPI adds keywords of its own (example) around and inside its schemas.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(structuredClone(document), DOCUMENT_ID);
  return ajv;
}

/** The validator of the schema at a JSON pointer of the document (`#/components/schemas/Error`). */
export function validatorAt(ajv: Ajv2020, jsonPointer: string) {
  const validate = ajv.getSchema(`${DOCUMENT_ID}#${jsonPointer}`);
  if (!validate) throw new Error(`no schema at ${jsonPointer}`);
  return validate;
}

function compileContract(document: Json): Contract {
  const ajv = createAjv(document);
  // A fixed path before a parameter (`/v1/foods/suggest` before `/v1/foods/{foodNumber}`), as the router picks.
  const parameters = (path: string) => path.split("{").length;
  const routes = Object.entries(document.paths as Json)
    .map(([path, item]) => ({
      path,
      item: item as Json,
      pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`),
    }))
    .sort((a, b) => parameters(a.path) - parameters(b.path));

  function operationOf({ method, url }: RequestLine) {
    const raw = new URL(url).pathname;
    // A trailing slash is the same operation (overview.md says so; the router does so).
    const path = raw.length > 1 && raw.endsWith("/") ? raw.slice(0, -1) : raw;
    const lower = method.toLowerCase();
    for (const route of routes) {
      if (!route.pattern.test(path)) continue;
      const operation = route.item[lower];
      if (operation) return { path: route.path, method: lower, operation };
    }
    return undefined;
  }

  function fail(what: string, status: number, problem: string): never {
    throw new ContractViolation(`${what} answered ${status}: ${problem}`);
  }

  function validateAt(jsonPointer: string, value: unknown, what: string, status: number, part: string) {
    const validate = validatorAt(ajv, jsonPointer);
    if (!validate(value)) fail(what, status, `${part} is not valid against the document: ${ajv.errorsText(validate.errors, { dataVar: part })}; got ${preview(value)}`);
  }

  function checkText(request: RequestLine, response: { status: number; headers: Headers }, body: string) {
    const { status, headers } = response;
    const found = operationOf(request);
    const contentType = headers.get("content-type") ?? "";
    if (!found) {
      // Not an API operation: only the error shape is everyone's contract.
      if (status >= 400 && contentType.startsWith("application/json") && request.method !== "HEAD") {
        validateAt("/components/schemas/Error", parseJson(body, `${request.method} ${request.url}`, status), `${request.method} ${new URL(request.url).pathname} (no documented operation)`, status, "body");
      }
      return;
    }
    const what = `${found.method.toUpperCase()} ${found.path}`;
    const responses = found.operation.responses as Json;
    const key = String(status) in responses ? String(status) : `${String(status)[0]}XX` in responses ? `${String(status)[0]}XX` : "default";
    const documented = responses[key] as Json | undefined;
    if (!documented) fail(what, status, `status ${status} is not documented (documented: ${Object.keys(responses).join(", ")}); body ${preview(body)}`);
    const base = pointer("", "paths", found.path, found.method, "responses", key);

    const media = documented.content?.["application/json"];
    const other = Object.keys(documented.content ?? {}).find((type) => type !== "application/json" && contentType.split(";")[0]!.trim() === type);
    if (other !== undefined) {
      // Another media type the operation documents (a label's SVG): its body is the route's tests' to check.
    } else if (media?.schema) {
      if (!contentType.startsWith("application/json")) fail(what, status, `content-type ${contentType || "(none)"} is not JSON`);
      validateAt(`${base}/content/application~1json/schema`, parseJson(body, what, status), what, status, "body");
    } else if (body !== "") {
      fail(what, status, `the document shows no body, got ${preview(body)}`);
    }

    for (const [name, header] of Object.entries((documented.headers ?? {}) as Json)) {
      const resolved = header.$ref ? resolve(document, header.$ref) : header;
      const at = header.$ref ? `${String(header.$ref).slice(1)}/schema` : `${base}/headers/${pointer(name)}/schema`;
      const value = headers.get(name);
      if (value === null) {
        if (resolved.required) fail(what, status, `required header ${name} is missing`);
        continue;
      }
      const type = resolved.schema?.type;
      const typed = type === "integer" || type === "number" ? (/^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value) : value;
      validateAt(at, typed, what, status, `header ${name}`);
    }
  }

  return {
    document,
    operationOf,
    checkText,
    async check(request, response) {
      // HEAD and 204/304 have no body; reading a clone leaves the caller's response unread.
      const body = request.method === "HEAD" || response.body === null ? "" : decoded(response.headers, await response.clone().bytes());
      checkText(request, response, body);
    },
  };
}

/** The body as text: an in-process answer is as sent, in its content coding (fetch has already decoded its own). */
function decoded(headers: Headers, bytes: Uint8Array): string {
  return new TextDecoder().decode(decodeContent(headers.get("content-encoding"), bytes));
}

function parseJson(body: string, what: string, status: number): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new ContractViolation(`${what} answered ${status}: the body is not JSON: ${preview(body)}`);
  }
}

function resolve(document: Json, ref: string): Json {
  return ref
    .slice(2)
    .split("/")
    .reduce((node: Json, segment) => node?.[segment.replaceAll("~1", "/").replaceAll("~0", "~")], document);
}

function preview(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
