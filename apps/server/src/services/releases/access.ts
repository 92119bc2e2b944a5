import type { Caller } from "../../context";
import { forbidden } from "../../errors";

/** Settle and fail: a custodian's token with releases:write, or an admin (docs/domain.md permissions table). */
export function requireReleaseWriter(caller: Caller): void {
  if (caller.kind === "token") {
    if (!caller.token.scopes.includes("releases:write")) {
      throw forbidden("This API token lacks the releases:write scope.");
    }
    return;
  }
  if (caller.user.role !== "admin") throw forbidden("Only the custodian or an admin can report a release's outcome.");
}

/** Re-instruct and cancel: an admin, signed in. */
export function requireReleaseAdmin(caller: Caller): void {
  if (caller.kind !== "user" || caller.user.role !== "admin") {
    throw forbidden("Only an admin can re-instruct or cancel a release.");
  }
}
