export const milestoneKeys = {
  all: ["milestones"] as const,
  list: (filters: Record<string, string | undefined>) => [...milestoneKeys.all, "list", filters] as const,
  detail: (id: string) => [...milestoneKeys.all, "detail", id] as const,
};
