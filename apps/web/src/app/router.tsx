import type { ComponentType } from "react";
import { Navigate, type RouteObject, useLocation, useRoutes } from "react-router";
import type { AppPagePath } from "./app-pages";
import { PublicLayout } from "./layouts/public-layout";
import { lazyPage, lazyRoute, queryScope, queryScopeRoute } from "./lazy-route";
import { publicRoutes } from "./routes/public/routes";

/**
 * What a signed-in route starts before React reaches it (preload-route.ts), so that on a first load its code
 * and its data (@tranche/domain's pageReads) travel at once instead of one after another.
 */
export interface AppRouteHandle {
  /** Loads the route's code (and what it shows at once). */
  preload?: () => Promise<unknown>;
}

/** A lazily loaded route (its path one of app-pages.ts's, which the service worker reads) whose code (with `also`, what it shows at once) can be started early. */
function appPage(
  path: AppPagePath,
  load: () => Promise<{ default: ComponentType }>,
  { also }: { also?: () => Promise<unknown> } = {},
): RouteObject {
  const { element, preload } = lazyRoute(load);
  const handle: AppRouteHandle = { preload: also ? () => Promise.all([preload(), also()]) : preload };
  return { path, element, handle };
}

/** /signup is the login page's sign-up tab (its other parameters, such as `next`, kept). */
function SignUpRedirect() {
  const params = new URLSearchParams(useLocation().search);
  params.set("tab", "signup");
  return <Navigate to={`/login?${params}`} replace />;
}

const appShell = lazyRoute(() => import("./routes/app-shell"));
const fieldShell = lazyRoute(() => import("./routes/field-shell"));
const preloadCharts = () => import("@/features/analytics/components/lazy-charts").then((m) => m.preloadCharts());

/** The signed-in app: exactly the pages of app-pages.ts (scripts/prerender.mjs checks). */
export const appRoutes: RouteObject = {
  element: queryScope,
  handle: { preload: queryScopeRoute.preload } satisfies AppRouteHandle,
  children: [
    {
      element: appShell.element,
      handle: { preload: appShell.preload } satisfies AppRouteHandle,
      children: [
        appPage("/dashboard", () => import("./routes/dashboard")),
        appPage("/notifications", () => import("./routes/notifications")),
        appPage("/projects", () => import("./routes/projects")),
        appPage("/projects/:projectId", () => import("./routes/project-detail")),
        appPage("/milestones", () => import("./routes/milestones")),
        appPage("/milestones/:milestoneId", () => import("./routes/milestone-detail")),
        // Admins see the turnaround chart above the directory.
        appPage("/verifiers", () => import("./routes/verifiers"), { also: preloadCharts }),
        appPage("/verifications", () => import("./routes/verifications")),
        appPage("/reports", () => import("./routes/reports"), { also: preloadCharts }),
        appPage("/users", () => import("./routes/users")),
        appPage("/settings", () => import("./routes/settings")),
        appPage("/account", () => import("./routes/account")),
      ],
    },
    // The verifier's field view: its own phone-first shell, which opens with no signal (routes/field-shell.tsx).
    {
      element: fieldShell.element,
      handle: { preload: fieldShell.preload } satisfies AppRouteHandle,
      children: [
        appPage("/field", () => import("./routes/field")),
        appPage("/field/milestones/:milestoneId", () => import("./routes/field-assignment")),
      ],
    },
  ],
};

// Declarative routes (useRoutes), not the data router: createBrowserRouter alone adds ~16 kB gzipped
// to every page, which the landing page's 90 kB budget cannot carry (bench/public-site.ts).
export const routes: RouteObject[] = [
  {
    element: <PublicLayout />,
    children: [
      ...publicRoutes,
      {
        element: queryScope,
        children: [
          { path: "/login", element: lazyPage(() => import("./routes/login")) },
          { path: "/signup", element: <SignUpRedirect /> },
          { path: "/invite", element: lazyPage(() => import("./routes/invite")) },
          { path: "/forgot-password", element: lazyPage(() => import("./routes/forgot-password")) },
          { path: "/reset-password", element: lazyPage(() => import("./routes/reset-password")) },
          { path: "/verify-email", element: lazyPage(() => import("./routes/verify-email")) },
        ],
      },
    ],
  },
  appRoutes,
  { path: "*", element: lazyPage(() => import("./routes/not-found")) },
];

export function AppRoutes() {
  return useRoutes(routes);
}
