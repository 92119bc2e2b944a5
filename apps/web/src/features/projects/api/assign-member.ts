import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProjectDetailDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { refreshCapitalData } from "@/lib/refresh-capital-data";

export interface AssignMemberInput {
  projectId: string;
  userId: string;
  role: "verifier" | "investor";
}

export function assignMember({ projectId, ...body }: AssignMemberInput) {
  return api<ProjectDetailDto>(`/projects/${projectId}/members`, { method: "POST", body });
}

/** Admin: put a verifier or an investor on a project. */
export function useAssignMember() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: assignMember, onSuccess: () => refreshCapitalData(queryClient) });
}
