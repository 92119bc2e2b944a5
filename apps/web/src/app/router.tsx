import type { UserDto } from "@tranche/domain";
import type { ComponentType } from "react";
import { type RouteObject, useRoutes } from "react-router";
import { PublicLayout } from "./layouts/public-layout";
import { lazyPage, lazyRoute, queryScope, queryScopeRoute } from "./lazy-route";
import { publicRoutes } from "./routes/public/routes";

/**
 * What a signed-in route starts before React reaches it (preload-route.ts), so that on a first load its code
 * and its data travel at once instead of one after another.
 */
export interface AppRouteHandle {
  /** Loads the route's code (and what it shows at once). */
  preload?: () => Promise<unknown>;
  /** The API paths the route's first screen reads, for the signed-in `user`, when its address has these `params`. */
  data?: (params: URLSearchParams, user: UserDto) => string[];
}

/** A lazily loaded route whose code (and, with `data`, whose first reads) can be started early. */
function appPage(
  path: string,
  load: () => Promise<{ default: ComponentType }>,
  { data, also }: { data?: AppRouteHandle["data"]; also?: () => Promise<unknown> } = {},
): RouteObject {
  const { element, preload } = lazyRoute(load);
  const handle: AppRouteHandle = { preload: also ? () => Promise.all([preload(), also()]) : preload, data };
  return { path, element, handle };
}

/** The default view's reads only: with filters in the address the page asks for them itself, as it always has. */
const plain = (paths: string[]) => (params: URLSearchParams) => (params.size ? [] : paths);

const appShell = lazyRoute(() => import("./routes/app-shell"));
const fieldShell = lazyRoute(() => import("./routes/field-shell"));
const preloadCharts = () => import("@/features/analytics/components/lazy-charts").then((m) => m.preloadCharts());

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
          { path: "/invite", element: lazyPage(() => import("./routes/invite")) },
          { path: "/forgot-password", element: lazyPage(() => import("./routes/forgot-password")) },
          { path: "/reset-password", element: lazyPage(() => import("./routes/reset-password")) },
          { path: "/verify-email", element: lazyPage(() => import("./routes/verify-email")) },
        ],
      },
    ],
  },
  {
    element: queryScope,
    handle: { preload: queryScopeRoute.preload } satisfies AppRouteHandle,
    children: [
      {
        element: appShell.element,
        handle: { preload: appShell.preload } satisfies AppRouteHandle,
        children: [
          appPage("/dashboard", () => import("./routes/dashboard"), {
            data: (params, user) =>
              params.size ? [] : user.role === "verifier" ? ["/dashboard", "/verifications"] : ["/dashboard"],
          }),
          appPage("/notifications", () => import("./routes/notifications"), {
            data: plain(["/notifications?limit=30"]),
          }),
          appPage("/projects", () => import("./routes/projects"), {
            data: plain(["/projects?sort=newest", "/projects/counts"]),
          }),
          appPage("/projects/:projectId", () => import("./routes/project-detail")),
          appPage("/milestones", () => import("./routes/milestones"), {
            data: plain(["/milestones?sort=due", "/milestones/counts"]),
          }),
          appPage("/milestones/:milestoneId", () => import("./routes/milestone-detail")),
          appPage("/verifiers", () => import("./routes/verifiers"), {
            also: preloadCharts,
            // Admins see the turnaround chart (analytics) above the directory.
            data: (params, user) =>
              params.size ? [] : ["/verifiers?sort=name", ...(user.role === "admin" ? ["/analytics"] : [])],
          }),
          appPage("/verifications", () => import("./routes/verifications"), { data: plain(["/verifications"]) }),
          appPage("/reports", () => import("./routes/reports"), {
            also: preloadCharts,
            data: (params, user) =>
              params.size
                ? []
                : user.role === "verifier"
                  ? ["/reports?sort=newest"]
                  : ["/analytics", "/reports?sort=newest"],
          }),
          appPage("/users", () => import("./routes/users"), {
            data: plain(["/users?sort=name", "/invitations", "/projects?sort=name&limit=100"]),
          }),
          appPage("/settings", () => import("./routes/settings"), {
            data: plain(["/api-tokens", "/webhook-endpoints", "/outbox/emails", "/public-requests?limit=50"]),
          }),
          appPage("/account", () => import("./routes/account"), {
            data: () => ["/me/profile", "/me/email-preferences", "/auth/mfa", "/auth/sessions"],
          }),
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
  },
  { path: "*", element: lazyPage(() => import("./routes/not-found")) },
];

export function AppRoutes() {
  return useRoutes(routes);
}
