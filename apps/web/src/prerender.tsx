// Server-side entry of the build's prerender step (scripts/prerender.mjs): renders each static public page
// to HTML with the same tree the browser hydrates (main.tsx), under a StaticRouter instead of a BrowserRouter.
import { StrictMode } from "react";
import { prerender } from "react-dom/static";
import { type RouteObject, StaticRouter } from "react-router";
import { AppRoutes } from "./app/router";
import { publicPageTitle, publicRoutes } from "./app/routes/public/routes";
import { ToasterSlot } from "./app/toaster-slot";

/** The public routes without parameters (a page per path), "/" first. */
export function staticPublicPaths(routes: RouteObject[] = publicRoutes): string[] {
  return routes.flatMap((route) => {
    const own = route.index ? ["/"] : route.path && !route.path.includes(":") ? [route.path] : [];
    return [...own, ...staticPublicPaths(route.children ?? [])];
  });
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
