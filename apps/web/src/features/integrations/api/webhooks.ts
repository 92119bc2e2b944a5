import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  CreateWebhookEndpointInput,
  UpdateWebhookEndpointInput,
  WebhookDeliveryDto,
  WebhookEndpointDto,
  WebhookEndpointWithSecretDto,
} from "@tranche/domain";
import { api } from "@/lib/api-client";
import { pagedQuery, usePagedList } from "@/lib/paged-query";

export const webhookKeys = {
  all: ["webhooks"] as const,
  endpoints: () => [...webhookKeys.all, "endpoints"] as const,
  deliveries: (endpointId: string) => [...webhookKeys.all, "deliveries", endpointId] as const,
};

export const webhookEndpointsQuery = queryOptions({
  queryKey: webhookKeys.endpoints(),
  queryFn: async () => (await api<{ items: WebhookEndpointDto[] }>("/webhook-endpoints")).items,
});

export function useWebhookEndpoints() {
  return useQuery(webhookEndpointsQuery);
}

/** The delivery log, newest first, refreshed every few seconds while something is still on its way. */
export function useWebhookDeliveries(endpointId: string) {
  return usePagedList(
    pagedQuery<WebhookDeliveryDto>(
      webhookKeys.deliveries(endpointId),
      `/webhook-endpoints/${endpointId}/deliveries`,
      {},
    ),
    (pages) => (pages.some((page) => page.items.some((d) => d.status === "pending")) ? 2_000 : 15_000),
  );
}

function useInvalidateWebhooks() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: webhookKeys.all });
}

export function useCreateWebhookEndpoint() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({
    mutationFn: (input: CreateWebhookEndpointInput) =>
      api<WebhookEndpointWithSecretDto>("/webhook-endpoints", { method: "POST", body: input }),
    onSuccess: invalidate,
  });
}

export function useUpdateWebhookEndpoint() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({
    mutationFn: ({ id, ...input }: UpdateWebhookEndpointInput & { id: string }) =>
      api<WebhookEndpointDto>(`/webhook-endpoints/${id}`, { method: "PATCH", body: input }),
    onSuccess: invalidate,
  });
}

export function useDeleteWebhookEndpoint() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/webhook-endpoints/${id}`, { method: "DELETE" }),
    onSuccess: invalidate,
  });
}

export function useRotateWebhookSecret() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({
    mutationFn: (id: string) =>
      api<WebhookEndpointWithSecretDto>(`/webhook-endpoints/${id}/rotate-secret`, { method: "POST" }),
    onSuccess: invalidate,
  });
}

export function useSendTestEvent() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({
    mutationFn: (id: string) => api<{ deliveryId: string }>(`/webhook-endpoints/${id}/test`, { method: "POST" }),
    onSuccess: invalidate,
  });
}

/** "retry" runs a pending or failed delivery now; "replay" sends a finished one again (same webhook-id). */
export function useDeliveryAction() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({
    mutationFn: ({
      endpointId,
      deliveryId,
      action,
    }: {
      endpointId: string;
      deliveryId: string;
      action: "retry" | "replay";
    }) => api<{ ok: true }>(`/webhook-endpoints/${endpointId}/deliveries/${deliveryId}/${action}`, { method: "POST" }),
    onSuccess: invalidate,
  });
}
