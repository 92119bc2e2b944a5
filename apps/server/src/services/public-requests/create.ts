import type { PublicRequestDto, publicRequestSchema } from "@tranche/domain";
import type { z } from "zod";
import { enforce } from "../../auth/rate-limit";
import type { Db } from "../../db/client";
import { publicRequests } from "../../db/schema";
import type { Env } from "../../env";
import { appendAudit } from "../audit/append";
import { toPublicRequestDto } from "./dto";

const ONE_HOUR = 60 * 60;

/** Counts one public form submission from this address; 429 with Retry-After past the limit. */
export async function limitPublicForm(db: Db, env: Env, ip: string): Promise<void> {
  await enforce(db, [{ key: `public-form:ip:${ip}`, max: env.PUBLIC_FORM_LIMIT_PER_IP, windowSeconds: ONE_HOUR }]);
}

/** Stores a request from a public form (no one is signed in) together with its audit event. */
export async function createPublicRequest({
  db,
  input,
  ip,
}: {
  db: Db;
  input: z.output<typeof publicRequestSchema>;
  ip: string;
}): Promise<PublicRequestDto> {
  const blankToNull = (value: string | undefined) => (value ? value : null);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(publicRequests)
      .values({
        kind: input.kind,
        email: input.email,
        name: blankToNull(input.name),
        organization: blankToNull(input.organization),
        message: blankToNull(input.message),
        source: blankToNull(input.source),
        ip,
      })
      .returning();
    // The audit record is append-only, so it keeps what happened but not the sender's personal details.
    await appendAudit(tx, {
      actorId: null,
      action: "public_request.received",
      entityType: "public_request",
      entityId: row.id,
      after: { kind: row.kind, source: row.source },
    });
    return toPublicRequestDto(row);
  });
}
