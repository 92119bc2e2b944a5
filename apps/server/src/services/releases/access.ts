import type { Caller } from "../../context";
import { forbidden } from "../../errors";

/**
 * Settle and fail: the custodian's token with releases:write, never a person's session (docs/domain.md permissions
 * table). Only the one who pays reports what was paid; an admin answers a failure by re-instructing or cancelling.
 */
export function requireReleaseWriter(caller: Caller): void {
  if (caller.kind === "user") {
    throw forbidden(
      "Only the custodian's API token (releases:write) reports a release's outcome; an admin re-instructs or cancels a failed release.",
    );
  }
  if (!caller.token.scopes.includes("releases:write")) {
    throw forbidden("This API token lacks the releases:write scope.");
  }
}

/** Re-instruct and cancel: an admin, signed in. */
export function requireReleaseAdmin(caller: Caller): void {
  if (caller.kind !== "user" || caller.user.role !== "admin") {
    throw forbidden("Only an admin can re-instruct or cancel a release.");
  }
}
