export const projectKeys = {
  all: ["projects"] as const,
  lists: ["projects", "list"] as const,
  detail: (id: string) => [...projectKeys.all, "detail", id] as const,
  verifiers: ["verifiers"] as const,
  investors: ["users", "investors"] as const,
  owners: ["users", "project-owners"] as const,
};
