import { fieldErrors } from "@tranche/domain";
import type { Context } from "hono";
import type { z } from "zod";
import { AppError } from "../errors";

export const JSON_BODY_LIMIT = 256 * 1024;

/** The deepest nesting of arrays and objects a JSON body may have: no form needs more, and a walk stays shallow. */
export const JSON_DEPTH_LIMIT = 64;

/**
 * The deepest array/object nesting in JSON text, counted in one loop over the characters (never by recursion,
 * which 100,000 nested arrays would overflow). Brackets inside strings are skipped; malformed text is left to
 * JSON.parse.
 */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // backslash: the next character is escaped
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return deepest;
}

function invalid(error: z.ZodError): AppError {
  const details = fieldErrors(error);
  const first = Object.entries(details)[0];
  // A cursor is opaque to the client: its message ("Cursor is not valid.") stands alone.
  const message = first
    ? first[0] === "_" || first[0] === "cursor"
      ? first[1]
      : `${first[0]}: ${first[1]}`
    : "Invalid input.";
  return new AppError("invalid_input", message, details);
}

export const NUL_MESSAGE = "Text cannot contain the NUL character.";
export const SURROGATE_MESSAGE = "Text must be valid Unicode.";

/** Why PostgreSQL would refuse this text: text cannot hold U+0000, jsonb refuses an unpaired surrogate. */
function textProblem(text: string): string | null {
  if (text.includes("\u0000")) return NUL_MESSAGE;
  return /\p{Cs}/u.test(text) ? SURROGATE_MESSAGE : null;
}

/** Field path → problem, for every string (keys included) the database could not store. */
function badText(value: unknown, path: string[] = []): [string, string][] {
  if (typeof value === "string") {
    const problem = textProblem(value);
    return problem ? [[path.join(".") || "_", problem]] : [];
  }
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, inner]): [string, string][] => {
    const problem = textProblem(key);
    return problem ? [[[...path, key].join("."), problem]] : badText(inner, [...path, key]);
  });
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const bad = badText(value);
  if (bad.length > 0) {
    const [field, problem] = bad[0];
    throw new AppError("invalid_input", field === "_" ? problem : `${field}: ${problem}`, Object.fromEntries(bad));
  }
  const result = schema.safeParse(value);
  if (!result.success) throw invalid(result.error);
  return result.data;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** Reads a JSON body (content type, size, encoding and syntax checked) and validates it with a shared schema. */
export async function parseJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    throw new AppError("unsupported_media_type", "Send the body as application/json.");
  }
  const declared = Number(c.req.header("content-length") ?? 0);
  if (declared > JSON_BODY_LIMIT) throw new AppError("payload_too_large", "The request body is too large.");
  const bytes = await c.req.arrayBuffer();
  if (bytes.byteLength > JSON_BODY_LIMIT) throw new AppError("payload_too_large", "The request body is too large.");
  // JSON is UTF-8: a lenient decoding would store U+FFFD in place of the bytes it could not read.
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new AppError("invalid_input", "The request body is not valid UTF-8.");
  }
  if (jsonDepth(text) > JSON_DEPTH_LIMIT) {
    throw new AppError(
      "invalid_input",
      `The request body is nested too deeply (more than ${JSON_DEPTH_LIMIT} levels).`,
    );
  }
  let value: unknown;
  try {
    value = text.length ? JSON.parse(text) : undefined;
  } catch {
    throw new AppError("invalid_input", "The request body is not valid JSON.");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new AppError("invalid_input", "The request body must be a JSON object.");
  }
  return parseWith(schema, value);
}

export function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  return parseWith(schema, c.req.query());
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that is not a uuid cannot name anything: answer 404 rather than a database error. */
export function pathId(c: Context, name = "id", what = "Resource"): string {
  const value = c.req.param(name) ?? "";
  if (!UUID.test(value)) throw new AppError("not_found", `${what} not found.`);
  return value.toLowerCase();
}
