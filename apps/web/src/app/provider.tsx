import { lazy, Suspense } from "react";
import { BrowserRouter } from "react-router";
import { AppRoutes } from "./router";

// Toasts can wait for the page: sonner loads after first paint, outside the landing page's budget.
const Toaster = lazy(() => import("@/components/ui/toaster").then((m) => ({ default: m.Toaster })));

/** The QueryClient is provided by the QueryScope layout route (see router.tsx), not here. */
export function AppProvider() {
  return (
    <BrowserRouter>
      <AppRoutes />
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </BrowserRouter>
  );
}
