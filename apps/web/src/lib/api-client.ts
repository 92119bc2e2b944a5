// The one API client of the web app: JSON in and out, the server's error body turned into ApiError,
// and a 401 on a protected call sends the visitor to /login.
import { takeEarly } from "./early-fetch";
import { loginPath } from "./next-path";

/**
 * What a person reads of an error: the API names the field before a field's message ("cosignAbove: Countersign amount
 * must be greater than zero.") for its clients; a toast says the message alone, the form shows it by the field.
 */
function readable(message: string, details: unknown): string {
  if (!details || typeof details !== "object") return message;
  const [field, problem] = Object.entries(details)[0] ?? [];
  return typeof problem === "string" && message === `${field}: ${problem}` ? problem : message;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(readable(message, details));
    this.name = "ApiError";
  }

  /** Field messages from a 400 ({ field: message }). */
  get fieldErrors(): Record<string, string> {
    const d = this.details;
    return d && typeof d === "object" && !Array.isArray(d) ? (d as Record<string, string>) : {};
  }
}

type Options = Omit<RequestInit, "body"> & { body?: unknown; redirectOn401?: boolean; secondFactorAsked?: boolean };

/**
 * Asked when the server answers 403 `mfa_required`: resolves true once the person has passed the second factor
 * (the request is then sent once more), false when they did not.
 */
type SecondFactorHandler = (need: { enrolled: boolean }) => Promise<boolean>;
let onSecondFactor: SecondFactorHandler | null = null;
export function setSecondFactorHandler(handler: SecondFactorHandler | null) {
  onSecondFactor = handler;
}

let onUnauthenticated: () => void = () => {
  const { pathname, search } = window.location;
  if (pathname !== "/login") window.location.assign(loginPath(`${pathname}${search}`));
};
export function setUnauthenticatedHandler(handler: () => void) {
  onUnauthenticated = handler;
}

export async function api<T>(path: string, options: Options = {}): Promise<T> {
  const { body, redirectOn401 = true, secondFactorAsked = false, headers, ...rest } = options;
  const isForm = body instanceof FormData;
  // A plain GET may have been asked for already, while the page's code was loading (lib/early-fetch.ts).
  const plainGet = (rest.method ?? "GET") === "GET" && body === undefined && headers === undefined;
  const early = plainGet ? await takeEarly(path)?.catch(() => undefined) : undefined;
  const res =
    early ??
    (await fetch(`/api${path}`, {
      credentials: "same-origin",
      ...rest,
      headers: {
        Accept: "application/json",
        ...(body !== undefined && !isForm ? { "Content-Type": "application/json" } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    }));
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const error = (data as { error?: { code?: string; message?: string; details?: unknown } } | null)?.error;
    if (res.status === 401 && redirectOn401) onUnauthenticated();
    if (error?.code === "mfa_required" && onSecondFactor && !secondFactorAsked) {
      const enrolled = (error.details as { enrolled?: boolean } | undefined)?.enrolled === true;
      if (await onSecondFactor({ enrolled })) return api<T>(path, { ...options, secondFactorAsked: true });
    }
    throw new ApiError(
      res.status,
      error?.code ?? "http_error",
      error?.message ?? `Request failed (${res.status}).`,
      error?.details,
    );
  }
  return data as T;
}

/** The message to show for any thrown value. */
export function errorMessage(error: unknown, fallback = "Something went wrong."): string {
  return error instanceof Error && error.message ? error.message : fallback;
}
