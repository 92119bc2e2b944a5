import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { refreshCapitalData } from "@/lib/refresh-capital-data";

export interface RemoveMemberInput {
  projectId: string;
  userId: string;
  role: "verifier" | "investor";
}

export function removeMember({ projectId, userId, role }: RemoveMemberInput) {
  return api<void>(`/projects/${projectId}/members/${userId}?role=${role}`, { method: "DELETE" });
}

/** Admin: take a verifier or an investor off a project. */
export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: removeMember, onSuccess: () => refreshCapitalData(queryClient) });
}
