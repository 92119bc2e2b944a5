// The signed-in app's pages, as router.tsx spells their paths. A plain list with no imports, so that the service
// worker (src/sw/service-worker.ts) builds from it which navigations it may answer from the device, without loading
// the router; the router's app pages take their paths from it (AppPagePath), and the build (scripts/prerender.mjs)
// fails if the router's signed-in routes and this list ever differ.
export const APP_PAGES = [
  "/dashboard",
  "/notifications",
  "/projects",
  "/projects/:projectId",
  "/milestones",
  "/milestones/:milestoneId",
  "/verifiers",
  "/verifications",
  "/reports",
  "/users",
  "/settings",
  "/account",
  "/field",
  "/field/milestones/:milestoneId",
] as const;

export type AppPagePath = (typeof APP_PAGES)[number];
