import type { OutboxEmailDto } from "@tranche/domain";
import { desc, eq } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { outbox } from "../../db/schema";
import { forbidden } from "../../errors";
import { EMAIL_TOPIC, type EmailPayload } from "./queue";

/** The latest emails (admins): what Tranche sent, and on a machine without SMTP what it would have sent. */
export async function listOutboxEmails({ ctx }: { ctx: ServiceContext }): Promise<OutboxEmailDto[]> {
  if (ctx.actor.role !== "admin") throw forbidden("Only an admin can see the outbox.");
  const rows = await ctx.db
    .select()
    .from(outbox)
    .where(eq(outbox.topic, EMAIL_TOPIC))
    .orderBy(desc(outbox.createdAt))
    .limit(100);
  return rows.map((row) => {
    const email = row.payload as EmailPayload;
    const status =
      row.status === "dead"
        ? "failed"
        : row.status === "pending"
          ? "pending"
          : email.via === "smtp"
            ? "sent"
            : "stored";
    const visible = status === "stored";
    return {
      id: row.id,
      to: email.to,
      subject: email.subject,
      kind: email.kind,
      status,
      createdAt: row.createdAt.toISOString(),
      attempts: row.attempts,
      lastError: row.lastError,
      text: visible ? email.text : null,
      link: visible ? email.link : null,
    };
  });
}
