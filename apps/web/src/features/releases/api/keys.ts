export const releaseKeys = {
  all: ["releases"] as const,
  list: () => [...releaseKeys.all, "list"] as const,
};
