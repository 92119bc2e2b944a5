// Query strings and small bodies that only one route reads (the forms' schemas live beside their forms in
// ../schemas.ts, ../people.ts, ../security.ts and ../webhooks.ts).
import { z } from "zod";
import { acceptInvitationSchema } from "../people";
import { listCursor, listLimit, queryNumber } from "../schemas";

/** An event's or a checkpoint's id: a whole number from 1, optional. */
const sequenceId = (message: string) =>
  queryNumber(message)
    .pipe(z.number().positive({ error: message }).max(Number.MAX_SAFE_INTEGER, { error: message }))
    .optional();

export const auditQuerySchema = z.strictObject({
  projectId: z.uuid({ error: "projectId must be a project id." }).optional(),
  /** The previous page's nextCursor (an event id); `before` is its older name. */
  cursor: sequenceId("Cursor is not valid."),
  before: sequenceId("before must be an event id."),
  limit: listLimit,
});

export const auditExportQuerySchema = auditQuerySchema.pick({ projectId: true });

export const checkpointQuerySchema = z.strictObject({
  before: sequenceId("before must be a checkpoint id."),
  limit: listLimit,
});

export const certificateQuerySchema = z.strictObject({
  release: z.uuid({ error: "release must be a release id." }),
  hash: z
    .string({ error: "hash is required." })
    .trim()
    .toLowerCase()
    .regex(/^[0-9a-f]{64}$/, { error: "hash must be the certificate's 64-character SHA-256 fingerprint." }),
});

export const deliveriesQuerySchema = z.strictObject({
  /** The previous page's nextCursor; `before` (an ISO time: deliveries created before it) is its older form. */
  cursor: listCursor,
  before: z.iso.datetime({ offset: true, error: "before must be an ISO time." }).optional(),
});

export const removeMemberQuerySchema = z.strictObject({
  role: z.enum(["investor", "verifier"], { error: "Role must be investor or verifier." }),
});

/** The invitation link's token, sent in a body (never in a logged URL). */
export const invitationLookupSchema = acceptInvitationSchema.pick({ token: true });
