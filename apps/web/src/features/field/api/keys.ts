export const fieldKeys = {
  all: ["field"] as const,
  assignments: (userId: string) => ["field", "assignments", userId] as const,
  visit: (userId: string, milestoneId: string) => ["field", "visit", userId, milestoneId] as const,
  documents: (userId: string, milestoneId: string) => ["field", "documents", userId, milestoneId] as const,
};
