export const releaseKeys = {
  all: ["releases"] as const,
  list: (filters: { projectId?: string }) => [...releaseKeys.all, "list", filters] as const,
};
