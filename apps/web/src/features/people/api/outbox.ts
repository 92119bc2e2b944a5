import { useQuery } from "@tanstack/react-query";
import type { OutboxEmailDto } from "@tranche/domain";
import { api } from "@/lib/api-client";

/** The latest emails and how each was handled (admins); refreshed while messages wait to be handled. */
export function useOutboxEmails() {
  return useQuery({
    queryKey: ["outbox", "emails"],
    queryFn: () => api<OutboxEmailDto[]>("/outbox/emails"),
    refetchInterval: (query) => (query.state.data?.some((email) => email.status === "pending") ? 2000 : false),
  });
}
