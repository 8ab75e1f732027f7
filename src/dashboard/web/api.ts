/**
 * Calls to this server's API. The session travels in its HttpOnly cookie (same origin); API keys and trial
 * tokens go in headers, never in a URL. Every outcome comes back as a value, refusals included.
 */

export type Credential = { kind: "key"; value: string } | { kind: "trial"; value: string };

export type ApiResult<T> =
  | { ok: true; status: number; data: T; headers: Headers }
  | { ok: false; status: number; code: string; message: string; headers: Headers };

/** Told after every call made with an API key (answered or not): the key list's "Last used" may have moved. */
const keyCallListeners = new Set<() => void>();
export function onKeyCall(listener: () => void): void {
  keyCallListeners.add(listener);
}

export async function callApi<T>(method: string, path: string, options: { body?: unknown; credential?: Credential } = {}): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.credential?.kind === "key") headers["x-api-key"] = options.credential.value;
  if (options.credential?.kind === "trial") headers.authorization = `Bearer ${options.credential.value}`;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    return { ok: false, status: 0, code: "NETWORK_ERROR", message: "The server could not be reached. Check the connection and try again.", headers: new Headers() };
  }
  const data = parseJson(await response.text());
  if (options.credential?.kind === "key") for (const listener of keyCallListeners) listener();
  if (response.ok) return { ok: true, status: response.status, data: data as T, headers: response.headers };
  const error = (data ?? {}) as { code?: unknown; message?: unknown };
  return {
    ok: false,
    status: response.status,
    code: typeof error.code === "string" ? error.code : `HTTP_${response.status}`,
    message: typeof error.message === "string" ? error.message : `The server answered with status ${response.status}.`,
    headers: response.headers,
  };
}

function parseJson(text: string): unknown {
  try {
    return text === "" ? null : JSON.parse(text);
  } catch {
    return null;
  }
}

/** `RateLimit: "trial";r=29;t=86399` with `RateLimit-Policy: "trial";q=30;w=86400`. */
export function quotaOf(headers: Headers): { policy: string; remaining: number; limit: number } | undefined {
  const state = /^"([^"]+)";r=(\d+)/.exec(headers.get("ratelimit") ?? "");
  const policy = /;q=(\d+)/.exec(headers.get("ratelimit-policy") ?? "");
  if (!state || !policy) return undefined;
  return { policy: state[1]!, remaining: Number(state[2]), limit: Number(policy[1]) };
}

/** The fields (by their names) an API refusal is about, so that its message can describe them. */
const FIELDS_OF_ERROR: Readonly<Record<string, readonly string[]>> = {
  INVALID_EMAIL: ["email"],
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: ["email"],
  INVALID_EMAIL_OR_PASSWORD: ["email", "password"],
  INVALID_PASSWORD: ["currentPassword", "password"],
  PASSWORD_TOO_SHORT: ["password", "newPassword"],
  PASSWORD_TOO_LONG: ["password", "newPassword"],
};

/**
 * The fields of `form` a refusal is about: those its code names; else, for a refused input (400, 422), the
 * form's only field. A limit reached or a server in trouble is about no field.
 */
export function refusedFields(form: HTMLFormElement, refusal: { status: number; code: string }): HTMLElement[] {
  const fields = [...form.elements].filter((field): field is HTMLInputElement => field instanceof HTMLInputElement && !["checkbox", "radio", "hidden"].includes(field.type));
  const names = FIELDS_OF_ERROR[refusal.code];
  if (names) return fields.filter((field) => names.includes(field.name));
  return (refusal.status === 400 || refusal.status === 422) && fields.length === 1 ? fields : [];
}
