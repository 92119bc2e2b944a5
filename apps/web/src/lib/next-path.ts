import { safeNextPath } from "@tranche/domain";

// The check itself lives in the domain package (shared, unit-tested there).
export { safeNextPath };

/** /login with the page to return to. */
export function loginPath(next: string): string {
  const path = safeNextPath(next);
  return path && path !== "/" ? `/login?next=${encodeURIComponent(path)}` : "/login";
}
