import { createBrowserRouter } from "react-router";
import { PublicLayout } from "./layouts/public-layout";
import { publicRoutes } from "./routes/public/routes";

/** Loads a route module lazily, so public pages never carry the signed-in app (and back). */
const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({
  Component: (await load()).default,
});

export const router = createBrowserRouter([
  {
    Component: PublicLayout,
    children: [...publicRoutes, { path: "/login", lazy: page(() => import("./routes/login")) }],
  },
  {
    lazy: page(() => import("./routes/app-shell")),
    children: [
      { path: "/dashboard", lazy: page(() => import("./routes/dashboard")) },
      { path: "/notifications", lazy: page(() => import("./routes/notifications")) },
      { path: "/projects", lazy: page(() => import("./routes/projects")) },
      { path: "/projects/:projectId", lazy: page(() => import("./routes/project-detail")) },
      { path: "/milestones", lazy: page(() => import("./routes/milestones")) },
      { path: "/milestones/:milestoneId", lazy: page(() => import("./routes/milestone-detail")) },
      { path: "/verifiers", lazy: page(() => import("./routes/verifiers")) },
      { path: "/verifications", lazy: page(() => import("./routes/verifications")) },
      { path: "/reports", lazy: page(() => import("./routes/reports")) },
      { path: "/users", lazy: page(() => import("./routes/users")) },
      { path: "/settings", lazy: page(() => import("./routes/settings")) },
    ],
  },
  { path: "*", lazy: page(() => import("./routes/not-found")) },
]);
