import { QueryClientProvider } from "@tanstack/react-query";
import { Outlet } from "react-router";
import { queryClient } from "./query-client";
import { useToasts } from "./toaster-slot";

/**
 * Layout route around every screen that talks to the server. It is loaded lazily so the static landing
 * page does not carry TanStack Query (bench/public-site.ts budget); all scopes share one client. These are
 * the screens that raise toasts, so the toaster loads with the first of them.
 */
export default function QueryScope() {
  useToasts();
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
