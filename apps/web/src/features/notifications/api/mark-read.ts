import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { NotificationDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { notificationKeys } from "./unread-count";

export function markNotificationRead(id: string) {
  return api<NotificationDto>(`/notifications/${id}/read`, { method: "POST" });
}

export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationRead,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}
