export const verificationKeys = {
  all: ["verification"] as const,
  detail: (milestoneId: string) => [...verificationKeys.all, "detail", milestoneId] as const,
  evidence: (milestoneId: string) => [...verificationKeys.all, "evidence", milestoneId] as const,
  history: (milestoneId: string) => [...verificationKeys.all, "history", milestoneId] as const,
  queue: () => [...verificationKeys.all, "queue"] as const,
  pending: () => [...verificationKeys.all, "pending"] as const,
  completed: () => [...verificationKeys.all, "completed"] as const,
  reports: () => [...verificationKeys.all, "reports"] as const,
};

export const milestonePath = (milestoneId: string) => `/milestones/${encodeURIComponent(milestoneId)}`;
