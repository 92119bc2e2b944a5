import type { Role } from "./constants";
import { seesVerifierDirectory } from "./rules";

/** A page's reads, for a user of `role`; `filtered` when its address has a query (filters, a sort, a page). */
type Reads = (filtered: boolean, role: Role | null) => string[];

/** The default view's reads only: with filters in the address the page asks for them itself. */
const plain =
  (paths: string[]): Reads =>
  (filtered) =>
    filtered ? [] : paths;

/** The default view's reads, for one role only: another role's page asks for nothing it would be refused. */
const plainFor =
  (only: Role, paths: string[]): Reads =>
  (filtered, role) =>
    filtered || role !== only ? [] : paths;

/**
 * The API reads (paths under /api) the first screen of each signed-in page makes, by the page's route pattern.
 * They are asked for before the page's code has loaded: the server names them in the app shell as preloads, and
 * the app asks for them before React starts (apps/web/src/app/preload-route.ts), so that on a first load the
 * code and the data travel at once. A page not listed starts its reads when it renders.
 */
const PAGE_READS: Record<string, Reads> = {
  "/dashboard": (filtered, role) =>
    filtered ? [] : role === "verifier" ? ["/dashboard", "/verifications"] : ["/dashboard"],
  "/notifications": plain(["/notifications?limit=30"]),
  "/projects": plain(["/projects?sort=newest", "/projects/counts"]),
  "/milestones": plain(["/milestones?sort=due", "/milestones/counts"]),
  // Admins see the turnaround chart (analytics) above the directory.
  "/verifiers": (filtered, role) =>
    filtered || !seesVerifierDirectory(role)
      ? []
      : ["/verifiers?sort=name", ...(role === "admin" ? ["/analytics"] : [])],
  "/verifications": plainFor("verifier", ["/verifications"]),
  "/reports": (filtered, role) =>
    filtered ? [] : role === "verifier" ? ["/reports?sort=newest"] : ["/analytics", "/reports?sort=newest"],
  "/users": plainFor("admin", ["/users?sort=name", "/invitations", "/projects?sort=name&limit=100"]),
  // Everyone else's settings are the password form alone, which reads nothing.
  "/settings": plainFor("admin", ["/api-tokens", "/webhook-endpoints", "/outbox/emails", "/public-requests?limit=50"]),
  "/account": () => ["/me/profile", "/me/email-preferences", "/auth/mfa", "/auth/sessions"],
};

const splitPath = (path: string) => path.replace(/\/+$/, "").split("/");

/**
 * The route pattern ("/projects/:projectId") `pathname` matches among `patterns`; `:name` matches one segment, and
 * trailing slashes are ignored on both (so "/" matches "/").
 */
export function matchPagePattern(patterns: readonly string[], pathname: string): string | undefined {
  const segments = splitPath(pathname);
  return patterns.find((pattern) => {
    const parts = splitPath(pattern);
    return (
      parts.length === segments.length &&
      parts.every((part, i) => (part.startsWith(":") ? segments[i] !== "" : part === segments[i]))
    );
  });
}

/**
 * What the signed-in page at `pathname?search` reads first, for a user of `role`: the page's own reads and, on
 * every page of the app shell (not the field view's), the unread count its header shows.
 */
export function pageReads(pathname: string, search: string, role: Role | null): string[] {
  const pattern = matchPagePattern(Object.keys(PAGE_READS), pathname);
  const page = pattern ? PAGE_READS[pattern](/[^?]/.test(search), role) : [];
  return pathname.startsWith("/field") ? page : ["/notifications/unread-count", ...page];
}
