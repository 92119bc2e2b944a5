import { type RouteObject, useRoutes } from "react-router";
import { PublicLayout } from "./layouts/public-layout";
import { lazyPage, queryScope } from "./lazy-route";
import { publicRoutes } from "./routes/public/routes";

// Declarative routes (useRoutes), not the data router: createBrowserRouter alone adds ~16 kB gzipped
// to every page, which the landing page's 90 kB budget cannot carry (bench/public-site.ts).
const routes: RouteObject[] = [
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
    children: [
      {
        element: lazyPage(() => import("./routes/app-shell")),
        children: [
          { path: "/dashboard", element: lazyPage(() => import("./routes/dashboard")) },
          { path: "/notifications", element: lazyPage(() => import("./routes/notifications")) },
          { path: "/projects", element: lazyPage(() => import("./routes/projects")) },
          { path: "/projects/:projectId", element: lazyPage(() => import("./routes/project-detail")) },
          { path: "/milestones", element: lazyPage(() => import("./routes/milestones")) },
          { path: "/milestones/:milestoneId", element: lazyPage(() => import("./routes/milestone-detail")) },
          { path: "/verifiers", element: lazyPage(() => import("./routes/verifiers")) },
          { path: "/verifications", element: lazyPage(() => import("./routes/verifications")) },
          { path: "/reports", element: lazyPage(() => import("./routes/reports")) },
          { path: "/users", element: lazyPage(() => import("./routes/users")) },
          { path: "/settings", element: lazyPage(() => import("./routes/settings")) },
          { path: "/account", element: lazyPage(() => import("./routes/account")) },
        ],
      },
    ],
  },
  { path: "*", element: lazyPage(() => import("./routes/not-found")) },
];

export function AppRoutes() {
  return useRoutes(routes);
}
