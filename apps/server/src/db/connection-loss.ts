// Which database errors mean "the connection went away" (a restart, failover, an idle-connection reaper or
// pg_terminate_backend), as opposed to a query the database refused. Only these are retried or answered 503.

const LOST_CONNECTION_CODES = new Set([
  "57P01", // admin_shutdown: terminated by an administrator or a restart
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: starting up or shutting down
  "08000", // connection_exception
  "08003", // connection_does_not_exist
  "08006", // connection_failure
  "08001", // sqlclient_unable_to_establish_sqlconnection
  "08004", // sqlserver_rejected_establishment_of_sqlconnection
]);
const LOST_CONNECTION_ERRNOS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
]);
const LOST_CONNECTION_MESSAGES = [
  /connection terminated/i,
  /terminating connection/i,
  /client has encountered a connection error/i,
  /timeout exceeded when trying to connect/i,
  /cannot use a pool after calling end/i,
  /connection ended unexpectedly/i,
];

/** True when `error`, or any error it wraps (drizzle wraps driver errors as `cause`), is a lost connection. */
export function isConnectionLoss(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== "object") return false;
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === "string" && (LOST_CONNECTION_CODES.has(code) || LOST_CONNECTION_ERRNOS.has(code))) return true;
    if (typeof message === "string" && LOST_CONNECTION_MESSAGES.some((pattern) => pattern.test(message))) return true;
    current = cause;
  }
  return false;
}

/** SQLSTATE of the integrity triggers (migration 0014): a write the database refused to protect money. */
const INTEGRITY_VIOLATION = "TR409";
/** The database's own constraints: check, foreign key, unique, exclusion. */
const CONSTRAINT_VIOLATIONS = new Set(["23514", "23503", "23505", "23P01"]);

/** Two transactions that each waited on the other (deadlock), or a serializable one that lost its race. */
const CONTENTION = new Set(["40P01", "40001"]);

/**
 * A write the database refused: one of the money triggers (`money`), one of its constraints, or a deadlock with a
 * concurrent write (`contention`: the database rolled this one back so the other could finish).
 */
export interface RefusedWrite {
  kind: "money" | "constraint" | "contention";
  message: string;
}

/**
 * The database's own refusal of a write (or an error wrapping one): an integrity trigger protecting money, a
 * constraint, or a deadlock. The application's checks should have refused it first, so each is a refusal, never a
 * fault.
 */
export function refusedWrite(error: unknown): RefusedWrite | null {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== "object") return null;
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    const text = typeof message === "string" ? message : String(code);
    if (code === INTEGRITY_VIOLATION) return { kind: "money", message: text };
    if (typeof code === "string" && CONSTRAINT_VIOLATIONS.has(code)) return { kind: "constraint", message: text };
    if (typeof code === "string" && CONTENTION.has(code)) return { kind: "contention", message: text };
    current = cause;
  }
  return null;
}
