// How a route is declared: `createRoute` names its method, path, input schemas and every answer it gives (a zod
// schema per status, from packages/domain); `ApiRoutes.handle` binds it to its handler and adds it to the OpenAPI
// document, with the error answers every route of its kind may give. docs/architecture.md has the whole picture.
import { OpenAPIHono, type RouteConfig, type RouteHandler } from "@hono/zod-openapi";
import { type ApiScope, errorBodySchema } from "@tranche/domain";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../context";
import { AppError } from "../errors";
import { parseJson, parseQuery, parseWith, pathId } from "../lib/validate";

/** What each error status means, the same on every route. */
export const ERROR_DESCRIPTIONS = {
  400: "The input is not valid: `details` maps each field to its message.",
  401: "Not signed in, or the bearer token is unknown or revoked, or its creator is no longer an admin (`token_owner_inactive`).",
  403: "Signed in, but this role, project membership or token scope does not allow it (`forbidden`); or the second factor is needed first (`mfa_required`, `details.enrolled` tells whether to ask for a code or set one up); or a state-changing request with a session cookie came from another origin (`cross_origin_request`).",
  404: "No such object, or the caller may not know it exists.",
  409: "The object's current state does not allow this (for example, already decided).",
  410: "The link was used, withdrawn or has expired: ask for a new one.",
  413: "The body is larger than the limit.",
  415: "The body is not of the content type the route reads.",
  422: "A business rule refuses it; the message says which.",
  429: "Too many requests: wait for `Retry-After` seconds.",
  500: "Something went wrong on the server; nothing is half-written.",
  503: "The database is briefly unavailable: retry after `Retry-After` seconds. Nothing was written.",
} as const;

type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

const errorResponse = (status: ErrorStatus) => ({
  description: ERROR_DESCRIPTIONS[status],
  content: { "application/json": { schema: errorBodySchema } },
});

/** Error answers a route gives beyond those every route of its kind gives (see `standardErrors`). */
export function errors<S extends ErrorStatus>(...statuses: S[]) {
  return Object.fromEntries(statuses.map((status) => [status, errorResponse(status)])) as Record<
    S,
    ReturnType<typeof errorResponse>
  >;
}

/** A JSON answer with its schema. */
export const json = <S extends z.ZodType>(schema: S, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** A JSON request body read with `schema`, with an example the schema accepts (a test checks it). */
export const jsonBody = <S extends z.ZodType>(schema: S, example: unknown, required = true) => ({
  content: { "application/json": { schema, example } },
  required,
});

/** The path of a route on one object: `{id}` is its uuid. */
export const idParams = z.object({ id: z.uuid() });

/** An answer with no body (204, 202). */
export const empty = (description: string) => ({ description });

/** A non-JSON answer (a CSV, PDF, image, file or event stream), described by its media type. */
export const file = (mediaType: string, description: string) => ({
  description,
  content: { [mediaType]: { schema: { type: "string" as const } } },
});

type Security = { [scheme: string]: string[] }[];
/** A list's streamed CSV download (UTF-8, header row). */
export const csvFile = () =>
  file("text/csv", "CSV: amounts as plain decimals; cells a spreadsheet would run as formulas are neutralised.");

/** A signed-in person (session cookie). */
export const SESSION: Security = [{ sessionCookie: [] }];
/** No sign-in needed. */
export const PUBLIC: Security = [];
/** An API token with the scope, never a person's session (a custodian's report). */
export const tokenOnly = (scope: ApiScope): Security => [{ bearerToken: [scope] }];
/** A signed-in person, or an API token with the scope. */
export const sessionOrToken = (scope: ApiScope): Security => [{ sessionCookie: [] }, { bearerToken: [scope] }];

const STATE_CHANGING = new Set(["post", "put", "patch", "delete"]);

/**
 * The errors any route of this kind may answer whatever its handler does: every /api request may carry an
 * unknown bearer token (401) or one over its rate limit (429), and meet a lost database (503) or a fault (500); a signed-in route refuses an API
 * token or a role (403); a write may come from another origin (403), be too large (413) or break an integrity
 * rule the database keeps (409); input may be invalid (400); a path id may name nothing (404).
 */
function standardErrors(route: RouteConfig): ErrorStatus[] {
  const statuses: ErrorStatus[] = [401, 429, 500, 503];
  const write = STATE_CHANGING.has(route.method);
  if (write) statuses.push(403, 409, 413);
  if ((route.security?.length ?? 0) > 0) statuses.push(403);
  const request = route.request;
  if (request?.query || request?.body || request?.headers) statuses.push(400);
  if (request?.body) statuses.push(415);
  if (route.path.includes("{")) statuses.push(404);
  return statuses;
}

function withStandardErrors<R extends RouteConfig>(route: R): R {
  const extra = Object.fromEntries(
    standardErrors(route)
      .filter((status) => !(status in route.responses))
      .map((status) => [status, errorResponse(status)]),
  );
  return { ...route, responses: { ...route.responses, ...extra } };
}

const honoPath = (path: string) => path.replaceAll(/\/{(.+?)}/g, "/:$1");

/**
 * A group of declared routes. `handle` binds a route whose answers are JSON (the handler's return is checked
 * against the declared schemas by the type checker); `handleRaw` one that answers files, streams or no body.
 *
 * Input is read in the handler, with the route's own schemas (`query`, `body`, `param` below), rather than by
 * middleware before it: the API answers permission (401/403) before input (400), a malformed id with 404, and a
 * body that is not JSON with 415, in that order, and the order is part of its contract (ADR 023).
 */
export class ApiRoutes extends OpenAPIHono<AppEnv> {
  handle<R extends RouteConfig>(route: R, handler: RouteHandler<R, AppEnv>): this {
    return this.bind(route, handler);
  }

  handleRaw<R extends RouteConfig>(route: R, handler: (c: Context<AppEnv>) => Response | Promise<Response>): this {
    return this.bind(route, handler);
  }

  private bind(route: RouteConfig, handler: unknown): this {
    this.openAPIRegistry.registerPath(withStandardErrors(route));
    this.on(route.method.toUpperCase(), honoPath(route.path), handler as any);
    return this;
  }
}

type QueryOf<R> = R extends { request: { query: infer Q extends z.ZodType } } ? z.output<Q> : never;
type BodyOf<R> = R extends {
  request: { body: { content: { "application/json": { schema: infer B extends z.ZodType } } } };
}
  ? z.output<B>
  : never;

/** The route's query string, read with its declared schema (400 naming the field when it does not fit). */
export function query<R extends RouteConfig>(c: Context<AppEnv>, route: R): QueryOf<R> {
  const schema = route.request?.query;
  if (!schema) throw new Error(`${route.method} ${route.path} declares no query`);
  return parseQuery(c, schema as z.ZodType) as QueryOf<R>;
}

/** The route's JSON body, read with its declared schema (415, 413 or 400 as for any JSON body). */
export async function body<R extends RouteConfig>(c: Context<AppEnv>, route: R): Promise<BodyOf<R>> {
  const media = route.request?.body?.content["application/json"] as { schema?: z.ZodType } | undefined;
  const schema = media?.schema;
  if (!schema) throw new Error(`${route.method} ${route.path} declares no JSON body`);
  return (await parseJson(c, schema as z.ZodType)) as BodyOf<R>;
}

/** An optional JSON body: none at all reads as {}. */
export async function optionalJson<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.output<S>> {
  const hasBody = Number(c.req.header("content-length") ?? 0) > 0 || c.req.header("content-type");
  return hasBody ? parseJson(c, schema) : parseWith(schema, {});
}

/** A uuid path parameter; anything else names nothing (404 "<what> not found."). */
export const param = (c: Context<AppEnv>, name: string, what: string) => pathId(c, name, what);

/** The optional `Idempotency-Key` header, declared on the routes that replay a retry's first answer. */
export const idempotencyHeaders = z.object({
  "idempotency-key": z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/)
    .optional()
    .meta({ description: "1 to 200 visible ASCII characters; a retry with the same key answers the first result." }),
});

/** The `Idempotency-Key` header when sent (400 unless 1 to 200 visible ASCII characters). */
export function idempotencyKey(c: Context<AppEnv>): string | undefined {
  const key = c.req.header("idempotency-key");
  if (key === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,200}$/.test(key)) {
    throw new AppError("invalid_input", "Idempotency-Key must be 1 to 200 visible ASCII characters.", {
      "Idempotency-Key": "Use 1 to 200 visible ASCII characters.",
    });
  }
  return key;
}
