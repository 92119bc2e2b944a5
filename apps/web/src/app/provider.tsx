import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "react-router";
import { Toaster } from "@/components/ui/toaster";
import { ApiError } from "@/lib/api-client";
import { router } from "./router";

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      refetchOnWindowFocus: true,
      // Client errors will not fix themselves; 502/503/504 are worth another try (SPEC.md §8).
      retry: (failureCount, error) =>
        failureCount < 2 && (!(error instanceof ApiError) || [502, 503, 504].includes(error.status)),
    },
  },
});

export function AppProvider() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>
  );
}
