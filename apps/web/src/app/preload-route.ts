import { pageReads, type UserDto } from "@tranche/domain";
import { matchRoutes } from "react-router";
import { fetchEarly, provideEarly } from "@/lib/early-fetch";
import { type AppRouteHandle, routes } from "./router";

/** The signed-in user the server wrote into the shell (apps/server/src/web-app.ts); undefined when it did not. */
function sessionInPage(): { user: UserDto | null } | undefined {
  const text = document.getElementById("session-data")?.textContent;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as { user: UserDto | null };
  } catch {
    return undefined;
  }
}

/**
 * On a first load of a signed-in page (the empty app shell), before React renders: starts loading every lazily
 * loaded module the route needs (its layouts and page at once, not each after the one around it has rendered) and
 * the page's first reads. The session comes with the page, so those reads start at once; the server has named
 * them in the page as preloads too, so the browser's requests are already under way and these take them over. The
 * API client takes the answers when the page asks (lib/early-fetch.ts). Signed out, no page data is asked for.
 * Resolves once the code is in (or failed: the page then loads it as it would have anyway).
 */
export function preloadRoute({ pathname, search }: { pathname: string; search: string }): Promise<unknown> {
  const handles = (matchRoutes(routes, pathname) ?? []).map((match) => (match.route.handle ?? {}) as AppRouteHandle);
  if (!handles.some((handle) => handle.preload)) return Promise.resolve();
  const code = Promise.allSettled(handles.map((handle) => handle.preload?.()));
  const askForData = (user: UserDto | null) => {
    if (!user) return;
    for (const path of pageReads(pathname, search, user.role)) fetchEarly(path);
  };
  const inPage = sessionInPage();
  if (inPage) {
    provideEarly("/auth/session", inPage);
    askForData(inPage.user);
    return code;
  }
  // A shell without it (the Vite dev server's): ask for the session first.
  fetchEarly("/auth/session")
    .then((res) => (res.ok ? (res.clone().json() as Promise<{ user: UserDto | null }>) : null))
    .then((body) => askForData(body?.user ?? null))
    .catch(() => undefined);
  return code;
}
