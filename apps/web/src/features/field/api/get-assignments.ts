import { useQuery } from "@tanstack/react-query";
import type { FieldAssignmentDto, UserDto } from "@tranche/domain";
import { ApiError, api } from "@/lib/api-client";
import { saveAssignments, savedAssignments } from "../store/field-store";
import { fieldKeys } from "./keys";

export interface Assignments {
  items: FieldAssignmentDto[];
  /** Where they came from: the server now, or the device (saved at `savedAt`) with no connection. */
  source: "server" | "device";
  savedAt: string;
}

/** Network failures (no signal) fall back to the device; anything the server said is an error as usual. */
export const isOffline = (error: unknown) => !(error instanceof ApiError);

/** GET /api/field/assignments, kept on the device; with no connection, the list as last kept. */
export function useAssignments(user: UserDto) {
  return useQuery({
    queryKey: fieldKeys.assignments(user.id),
    // Also offline: the device answers then.
    networkMode: "always",
    retry: false,
    queryFn: async (): Promise<Assignments> => {
      try {
        const { items } = await api<{ items: FieldAssignmentDto[] }>("/field/assignments");
        await saveAssignments(user, items);
        return { items, source: "server", savedAt: new Date().toISOString() };
      } catch (error) {
        const saved = isOffline(error) ? await savedAssignments(user.id) : null;
        if (!saved) throw error;
        return { ...saved, source: "device" };
      }
    },
  });
}
