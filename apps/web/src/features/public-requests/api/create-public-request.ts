import { useMutation } from "@tanstack/react-query";
import type { PublicRequestDto, PublicRequestInput } from "@tranche/domain";
import { api } from "@/lib/api-client";

export function createPublicRequest(input: PublicRequestInput) {
  return api<PublicRequestDto>("/public-requests", { method: "POST", body: input, redirectOn401: false });
}

/** Sends a public form (demo, early access, verifier partner); the server stores it for the admins. */
export function useCreatePublicRequest() {
  return useMutation({ mutationFn: createPublicRequest });
}
