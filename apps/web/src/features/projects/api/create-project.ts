import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateProjectInput, ProjectDetailDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { refreshCapitalData } from "@/lib/refresh-capital-data";

export function createProject(input: CreateProjectInput) {
  return api<ProjectDetailDto>("/projects", { method: "POST", body: input });
}

export function useCreateProject() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createProject, onSuccess: () => refreshCapitalData(queryClient) });
}
