// The WHATWG URL parser of browsers and Node; the domain package compiles without either's type definitions.
interface ParsedUrl {
  origin: string;
  pathname: string;
  search: string;
  hash: string;
}
declare const URL: new (input: string, base?: string) => ParsedUrl;

/**
 * Where to go after sign-in: a path on this site only. The value is first resolved against an origin with `new URL`
 * (dot segments, backslashes, tabs and newlines normalised as a browser would), and only then checked, so a path that
 * normalises to another origin ("/.//evil.example" → "//evil.example", "/\\evil.example") is refused, as are another
 * origin, a scheme and the sign-in page itself. Returns the normalised path, or null.
 */
export function safeNextPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith("/")) return null;
  const origin = "http://same.origin";
  let url: ParsedUrl;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Checked on the normalised form: a path read as "//host" or "/\host" by a browser names another site.
  if (url.origin !== origin || !path.startsWith("/") || path.startsWith("//") || path.includes("\\")) return null;
  if (url.pathname === "/login") return null;
  // Resolved again, the normalised path must stay on this origin and stay the same (no second normalisation).
  const again = new URL(path, origin);
  if (again.origin !== origin || `${again.pathname}${again.search}${again.hash}` !== path) return null;
  return path;
}
