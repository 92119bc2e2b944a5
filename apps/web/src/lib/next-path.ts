/**
 * Where to go after sign-in: a path on this site only. Anything else (another origin, a protocol-relative
 * "//host", a backslash trick, a scheme) is ignored, so a crafted link cannot send a user elsewhere.
 */
export function safeNextPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return null;
  try {
    const url = new URL(value, "http://same.origin");
    if (url.origin !== "http://same.origin" || url.pathname === "/login") return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

/** /login with the page to return to. */
export function loginPath(next: string): string {
  const path = safeNextPath(next);
  return path && path !== "/" ? `/login?next=${encodeURIComponent(path)}` : "/login";
}
