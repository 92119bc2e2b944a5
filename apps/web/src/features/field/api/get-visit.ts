import { useQuery } from "@tanstack/react-query";
import type { FieldVisitDto } from "@tranche/domain";
import { ApiError, api } from "@/lib/api-client";
import { savedVisit, saveVisit } from "../store/field-store";
import { isOffline } from "./get-assignments";
import { fieldKeys } from "./keys";

export interface Visit {
  visit: FieldVisitDto;
  source: "server" | "device";
  savedAt: string;
}

/** Not kept on this device, and no connection to fetch it. */
export const NOT_ON_DEVICE = "not_on_device";

/**
 * An assignment's visit: opening it fetches it and keeps it on the device (encrypted); with no connection, the
 * visit as last kept.
 */
export function useVisit(userId: string, milestoneId: string) {
  return useQuery({
    queryKey: fieldKeys.visit(userId, milestoneId),
    networkMode: "always",
    retry: false,
    queryFn: async (): Promise<Visit> => {
      try {
        const visit = await api<FieldVisitDto>(`/field/assignments/${milestoneId}`);
        await saveVisit(userId, visit);
        return { visit, source: "server", savedAt: new Date().toISOString() };
      } catch (error) {
        if (!isOffline(error)) throw error;
        const saved = await savedVisit(userId, milestoneId);
        if (!saved) {
          throw new ApiError(
            0,
            NOT_ON_DEVICE,
            "This assignment is not kept on this device yet: open it once with a connection.",
          );
        }
        return { ...saved, source: "device" };
      }
    },
  });
}
