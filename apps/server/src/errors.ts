import type { ContentfulStatusCode } from "hono/utils/http-status";

/** The one table mapping error codes to HTTP statuses (DESIGN.md error contract). */
export const ERROR_STATUS = {
  invalid_input: 400,
  unauthenticated: 401,
  /** An API token whose creator is no longer an admin (demoted or deleted): it acts for nobody. */
  token_owner_inactive: 401,
  forbidden: 403,
  /** A state-changing request with a session cookie that did not come from Tranche's own pages. */
  cross_origin_request: 403,
  /** The session must pass the second factor first (details.enrolled: whether one is set up). */
  mfa_required: 403,
  not_found: 404,
  conflict: 409,
  /** An action made against a verification round (or release policy) the milestone has since left. */
  stale_round: 409,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  business_rule: 422,
  /** An uploaded file whose SHA-256 is not the one its capture entry states: nothing of the upload is stored. */
  hash_mismatch: 422,
  weak_password: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
  database_unavailable: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
  }

  get status(): ContentfulStatusCode {
    return ERROR_STATUS[this.code];
  }

  toBody() {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details === undefined ? {} : { details: this.details }),
      },
    };
  }
}

export const notFound = (what = "Resource") => new AppError("not_found", `${what} not found.`);
export const forbidden = (message = "You are not allowed to do this.") => new AppError("forbidden", message);
export const conflict = (message: string, details?: unknown) => new AppError("conflict", message, details);
export const businessRule = (message: string, details?: unknown) => new AppError("business_rule", message, details);
