import { BrowserRouter } from "react-router";
import { AppRoutes } from "./router";
import { ToasterSlot } from "./toaster-slot";

/**
 * The QueryClient is provided by the QueryScope layout route (see router.tsx), not here. The prerendered
 * public pages render the same tree under a StaticRouter (src/prerender.tsx), so they hydrate as they are.
 */
export function AppProvider() {
  return (
    <BrowserRouter>
      <ToasterSlot>
        <AppRoutes />
      </ToasterSlot>
    </BrowserRouter>
  );
}
