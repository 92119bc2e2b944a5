import { matchRoutes, type RouteObject } from "react-router";
import { lazyPage, queryScope } from "../../lazy-route";

/** The landing page's title, and the shell's (index.html) until a page names itself. */
export const SITE_TITLE = "Tranche — milestone-verified capital release";

/**
 * Every public marketing route (docs/domain.md "Routes and navigation"), each its own lazily loaded chunk. The
 * pages whose forms reach the server sit in a QueryScope; the others, the landing page first, load no server-state
 * code. Each names itself in `handle.title`: the prerendered page's <title> (scripts/prerender.mjs) and the tab's
 * after a navigation.
 */
export const publicRoutes: RouteObject[] = [
  { index: true, element: lazyPage(() => import("./home")) },
  { path: "/features", element: lazyPage(() => import("./features")), handle: { title: "Features" } },
  { path: "/pricing", element: lazyPage(() => import("./pricing")), handle: { title: "Pricing" } },
  { path: "/about", element: lazyPage(() => import("./about")), handle: { title: "About" } },
  { path: "/partners", element: lazyPage(() => import("./partners")), handle: { title: "Partners" } },
  { path: "/enterprise", element: lazyPage(() => import("./enterprise")), handle: { title: "Enterprise" } },
  {
    path: "/institutional-partners",
    element: lazyPage(() => import("./institutional-partners")),
    handle: { title: "Institutional partners" },
  },
  { path: "/case-studies", element: lazyPage(() => import("./case-studies")), handle: { title: "Case studies" } },
  {
    path: "/gold-backed-protection",
    element: lazyPage(() => import("./gold-backed-protection")),
    handle: { title: "Gold-backed protection" },
  },
  { path: "/privacy", element: lazyPage(() => import("./privacy")), handle: { title: "Privacy notice" } },
  { path: "/terms", element: lazyPage(() => import("./terms")), handle: { title: "Terms of service" } },
  { path: "/roadmap", element: lazyPage(() => import("./roadmap")), handle: { title: "Roadmap" } },
  {
    path: "/verify/:milestoneId",
    element: lazyPage(() => import("./verify")),
    handle: { title: "Milestone verification" },
  },
  {
    element: queryScope,
    children: [
      { path: "/contact", element: lazyPage(() => import("./contact")), handle: { title: "Contact" } },
      {
        path: "/verify",
        element: lazyPage(() => import("./verify-certificate")),
        handle: { title: "Check a release certificate" },
      },
      { path: "/demo", element: lazyPage(() => import("./demo")), handle: { title: "Product demo" } },
      { path: "/verifier-app", element: lazyPage(() => import("./verifier-app")), handle: { title: "Verifier app" } },
      {
        path: "/become-verifier",
        element: lazyPage(() => import("./become-verifier")),
        handle: { title: "Become a verifier" },
      },
      {
        path: "/ai-verification",
        element: lazyPage(() => import("./ai-verification")),
        handle: { title: "AI verification" },
      },
    ],
  },
];

/** The document title of a public page: "Pricing · Tranche"; null for a path that is not a public page. */
export function publicPageTitle(pathname: string): string | null {
  const matches = matchRoutes(publicRoutes, pathname);
  if (!matches) return null;
  const title = (matches[matches.length - 1].route.handle as { title?: string } | undefined)?.title;
  return title ? `${title} · Tranche` : SITE_TITLE;
}
