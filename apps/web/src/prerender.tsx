// Server-side entry of the build's prerender step (scripts/prerender.mjs): renders each static public page
// to HTML with the same tree the browser hydrates (main.tsx), under a StaticRouter instead of a BrowserRouter.
import { StrictMode } from "react";
import { prerender } from "react-dom/static";
import { type RouteObject, StaticRouter } from "react-router";
import { APP_PAGES } from "./app/app-pages";
import { AppRoutes, appRoutes, routes } from "./app/router";
import { publicPageTitle, publicRoutes } from "./app/routes/public/routes";
import { ToasterSlot } from "./app/toaster-slot";

/** The router's catch-all: its Not Found page, which is no page of its own. */
const NOT_FOUND = "*";

/**
 * Every path pattern of `list` ("/projects/:projectId"; "/" for the index), in the router's order, without the
 * catch-all. The server answers 404 at any other path (apps/server/src/web-app.ts), and reads a `:param` as one
 * segment and nothing more: a pattern it could not read (a splat, an optional segment) fails the build rather than
 * turn a working address into a 404.
 */
export function routePatterns(list: RouteObject[] = routes, parent = "/"): string[] {
  const patterns = list.flatMap((route): string[] => {
    if (route.path === NOT_FOUND) return [];
    if (route.path && /[*?]/.test(route.path)) throw new Error(`the server cannot match the route ${route.path}`);
    const own = route.path ? joinPath(parent, route.path) : parent;
    return [...(route.index || route.path ? [own] : []), ...routePatterns(route.children ?? [], own)];
  });
  return [...new Set(patterns)];
}

/** A child route's path under its parent's (React Router's rule: an absolute path stands as written). */
const joinPath = (parent: string, path: string) =>
  path.startsWith("/") ? path : `${parent.replace(/\/$/, "")}/${path}`;

/**
 * What differs between the signed-in routes of the router and the list the service worker answers offline
 * (app/app-pages.ts): empty, or the build fails (scripts/prerender.mjs).
 */
export function appPagesDrift(): string[] {
  const routed = routePatterns([appRoutes]).filter((pattern) => pattern !== "/");
  const listed: readonly string[] = APP_PAGES;
  return [
    ...routed.filter((pattern) => !listed.includes(pattern)).map((pattern) => `${pattern} is routed but not listed`),
    ...listed.filter((pattern) => !routed.includes(pattern)).map((pattern) => `${pattern} is listed but not routed`),
  ];
}

/** The public routes without parameters (a page per path), "/" first. */
export function staticPublicPaths(list: RouteObject[] = publicRoutes): string[] {
  return routePatterns(list).filter((pattern) => !pattern.includes(":"));
}

/** The page's <title> text ("Pricing · Tranche"). */
export function pageTitle(path: string): string {
  const title = publicPageTitle(path);
  if (!title) throw new Error(`${path} is not a public page`);
  return title;
}

/** The page's markup once every lazily loaded route module has resolved (prerender waits for Suspense). */
export async function renderPage(path: string): Promise<string> {
  const { prelude } = await prerender(
    <StrictMode>
      <StaticRouter location={path}>
        <ToasterSlot>
          <AppRoutes />
        </ToasterSlot>
      </StaticRouter>
    </StrictMode>,
    // One document, not a stream: every Suspense boundary inline, so the page needs no script to reveal it.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  return new Response(prelude).text();
}
