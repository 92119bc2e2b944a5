import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "@/lib/api-client";

/** The one QueryClient of the app: every QueryScope shares it, so the cache outlives any one layout. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      refetchOnWindowFocus: true,
      // Client errors will not fix themselves; 502/503/504 (a server restarting or overloaded) are worth another try.
      retry: (failureCount, error) =>
        failureCount < 2 && (!(error instanceof ApiError) || [502, 503, 504].includes(error.status)),
    },
  },
});
