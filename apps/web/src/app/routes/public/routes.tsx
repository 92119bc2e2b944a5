import type { RouteObject } from "react-router";
import { lazyPage, queryScope } from "../../lazy-route";

/**
 * Every public marketing route of SPEC.md §2.1, each its own lazily loaded chunk. The pages whose forms
 * reach the server sit in a QueryScope; the others, the landing page first, load no server-state code.
 */
export const publicRoutes: RouteObject[] = [
  { index: true, element: lazyPage(() => import("./home")) },
  { path: "/features", element: lazyPage(() => import("./features")) },
  { path: "/pricing", element: lazyPage(() => import("./pricing")) },
  { path: "/about", element: lazyPage(() => import("./about")) },
  { path: "/partners", element: lazyPage(() => import("./partners")) },
  { path: "/enterprise", element: lazyPage(() => import("./enterprise")) },
  { path: "/institutional-partners", element: lazyPage(() => import("./institutional-partners")) },
  { path: "/case-studies", element: lazyPage(() => import("./case-studies")) },
  { path: "/gold-backed-protection", element: lazyPage(() => import("./gold-backed-protection")) },
  { path: "/privacy", element: lazyPage(() => import("./privacy")) },
  { path: "/terms", element: lazyPage(() => import("./terms")) },
  { path: "/roadmap", element: lazyPage(() => import("./roadmap")) },
  { path: "/verify/:milestoneId", element: lazyPage(() => import("./verify")) },
  {
    element: queryScope,
    children: [
      { path: "/contact", element: lazyPage(() => import("./contact")) },
      { path: "/verify", element: lazyPage(() => import("./verify-certificate")) },
      { path: "/demo", element: lazyPage(() => import("./demo")) },
      { path: "/verifier-app", element: lazyPage(() => import("./verifier-app")) },
      { path: "/become-verifier", element: lazyPage(() => import("./become-verifier")) },
      { path: "/ai-verification", element: lazyPage(() => import("./ai-verification")) },
    ],
  },
];
