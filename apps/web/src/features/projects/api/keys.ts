export const projectKeys = {
  all: ["projects"] as const,
  list: (search = "") => [...projectKeys.all, "list", { search }] as const,
  detail: (id: string) => [...projectKeys.all, "detail", id] as const,
  verifiers: ["verifiers"] as const,
  investors: ["users", "investors"] as const,
  owners: ["users", "project-owners"] as const,
};
