export const milestoneKeys = {
  all: ["milestones"] as const,
  lists: ["milestones", "list"] as const,
  detail: (id: string) => [...milestoneKeys.all, "detail", id] as const,
};
