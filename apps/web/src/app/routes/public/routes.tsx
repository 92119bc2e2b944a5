import type { RouteObject } from "react-router";

const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({
  Component: (await load()).default,
});

/** Every public marketing route of SPEC.md §2.1, each its own lazily loaded chunk. */
export const publicRoutes: RouteObject[] = [
  { index: true, lazy: page(() => import("./placeholder")) },
  ...[
    "features",
    "pricing",
    "about",
    "partners",
    "contact",
    "demo",
    "enterprise",
    "institutional-partners",
    "verifier-app",
    "case-studies",
    "become-verifier",
    "gold-backed-protection",
    "ai-verification",
    "privacy",
    "terms",
    "roadmap",
    "verify/:milestoneId",
  ].map((path) => ({ path: `/${path}`, lazy: page(() => import("./placeholder")) })),
];
