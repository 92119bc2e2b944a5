// GET answers asked for before the code that reads them has loaded (app/preload-route.ts): on a first load the
// session, the page's code and its data then travel at once instead of one after another. The API client takes
// each answer once; one nobody took within a few seconds is dropped, so nothing read later is stale.

const KEEP_MS = 5_000;
const early = new Map<string, Promise<Response>>();

/** The same path whatever the order of its query parameters. */
function key(path: string): string {
  const [pathname, search = ""] = path.split("?");
  const params = new URLSearchParams(search);
  params.sort();
  return params.size ? `${pathname}?${params}` : pathname;
}

/** Starts GET /api`path` now; the API client's first GET of the same path gets this answer. */
export function fetchEarly(path: string): Promise<Response> {
  const k = key(path);
  const pending = early.get(k);
  if (pending) return pending;
  const response = fetch(`/api${path}`, { credentials: "same-origin", headers: { Accept: "application/json" } });
  remember(k, response);
  // A failed early request is not an error of its own: the API client asks again when it takes it.
  response.catch(() => early.delete(k));
  return response;
}

function remember(k: string, response: Promise<Response>): void {
  early.set(k, response);
  setTimeout(() => early.get(k) === response && early.delete(k), KEEP_MS);
}

/** The early answer for this GET, if one was asked for and not yet taken (it is then forgotten). */
export function takeEarly(path: string): Promise<Response> | undefined {
  const k = key(path);
  const pending = early.get(k);
  early.delete(k);
  return pending;
}

const known = new Map<string, unknown>();

/**
 * An answer already known (the session the server wrote into the page): `takeKnown` reads it at once, else the
 * API client's first GET of the path gets it.
 */
export function provideEarly(path: string, body: unknown): void {
  const response = new Response(JSON.stringify(body), { headers: { "Content-Type": "application/json" } });
  known.set(key(path), body);
  remember(key(path), Promise.resolve(response));
}

/** The known answer for this path, once (the early answer is then forgotten too). */
export function takeKnown<T>(path: string): T | undefined {
  const k = key(path);
  const body = known.get(k) as T | undefined;
  known.delete(k);
  if (body !== undefined) early.delete(k);
  return body;
}
