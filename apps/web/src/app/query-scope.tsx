import { QueryClientProvider } from "@tanstack/react-query";
import { Outlet } from "react-router";
import { queryClient } from "./query-client";

/**
 * Layout route around every screen that talks to the server. It is loaded lazily so the static landing
 * page does not carry TanStack Query (bench/bundle-size.mjs budget); all scopes share one client.
 */
export default function QueryScope() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
