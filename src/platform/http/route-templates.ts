/**
 * Which declared route a request path belongs to, as its template (`/v1/foods/:foodNumber`), never the raw
 * path: metrics are labelled by it (a raw path would make a series per food number, or per scanner's
 * guess), and CORS and `OPTIONS` answer by it. Matched as the dispatcher and Elysia match: a trailing
 * slash is the same route, a parameter is one whole segment.
 */
export interface RouteTemplates {
  /** The template `path` (without its query) matches, or undefined for no route. */
  templateOf(path: string): string | undefined;
  /** The methods declared for a template (GET implies HEAD), for `Allow` and preflights. */
  methodsOf(template: string): readonly string[];
}

export function createRouteTemplates(routes: readonly { method: string; path: string }[]): RouteTemplates {
  const exact = new Map<string, string>();
  // Templates whose only parameter is the last segment, by the prefix before it: one lookup per request.
  const lastParam = new Map<string, string>();
  // Anything else (a parameter mid-path, a wildcard): matched segment by segment.
  const patterns: { segments: string[]; template: string }[] = [];
  const methods = new Map<string, Set<string>>();
  for (const { method, path } of routes) {
    const template = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
    const set = methods.get(template) ?? new Set<string>();
    set.add(method.toUpperCase());
    if (method.toUpperCase() === "GET") set.add("HEAD");
    methods.set(template, set);
    if (!/[:*]/.test(template)) exact.set(template, template);
    else if (/^[^:*]*\/:\w+$/.test(template)) lastParam.set(template.slice(0, template.lastIndexOf("/")), template);
    else patterns.push({ segments: template.split("/"), template });
  }
  const allowed = new Map([...methods].map(([template, set]) => [template, Object.freeze([...set, "OPTIONS"])]));

  return {
    templateOf(rawPath) {
      const path = rawPath.length > 1 && rawPath.endsWith("/") ? rawPath.slice(0, -1) : rawPath;
      const found = exact.get(path);
      if (found !== undefined) return found;
      const slash = path.lastIndexOf("/");
      if (slash > 0 && slash < path.length - 1) {
        const withParam = lastParam.get(path.slice(0, slash));
        if (withParam !== undefined) return withParam;
      }
      if (patterns.length === 0) return undefined;
      const segments = path.split("/");
      return patterns.find((p) => matches(p.segments, segments))?.template;
    },
    methodsOf: (template) => allowed.get(template) ?? [],
  };
}

function matches(pattern: readonly string[], segments: readonly string[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const part = pattern[i]!;
    if (part === "*") return true;
    const segment = segments[i];
    if (segment === undefined) return false;
    if (part.startsWith(":") ? segment === "" : part !== segment) return false;
  }
  return pattern.length === segments.length;
}
