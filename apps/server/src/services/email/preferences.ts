import {
  EMAIL_CATEGORIES,
  EMAIL_DEFAULTS,
  type EmailCategory,
  type EmailMode,
  type EmailPreferences,
} from "@tranche/domain";
import { eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { emailPreferences } from "../../db/schema";
import { appendAudit } from "../audit/append";

/** Which email category an in-app notification belongs to. */
export function emailCategoryOf(notificationCategory: string): EmailCategory {
  switch (notificationCategory) {
    case "verification":
      return "verification";
    case "release":
      return "releases";
    case "milestone":
      return "projects";
    default:
      return "account";
  }
}

/** One person's choices, with the defaults filled in. */
export async function getEmailPreferences(db: DbOrTx, userId: string): Promise<EmailPreferences> {
  const rows = await db
    .select({ category: emailPreferences.category, mode: emailPreferences.mode })
    .from(emailPreferences)
    .where(eq(emailPreferences.userId, userId));
  const chosen = new Map(rows.map((row) => [row.category, row.mode as EmailMode]));
  return Object.fromEntries(
    EMAIL_CATEGORIES.map((category) => [category, chosen.get(category) ?? EMAIL_DEFAULTS[category]]),
  ) as EmailPreferences;
}

/** A person chooses their email per category: written with its audit event, as every change is. */
export function setEmailPreferences(db: Db, userId: string, input: EmailPreferences): Promise<EmailPreferences> {
  return db.transaction(async (tx) => {
    const before = await getEmailPreferences(tx, userId);
    await tx
      .insert(emailPreferences)
      .values(EMAIL_CATEGORIES.map((category) => ({ userId, category, mode: input[category] })))
      .onConflictDoUpdate({
        target: [emailPreferences.userId, emailPreferences.category],
        set: { mode: sql`excluded.mode`, updatedAt: new Date() },
      });
    const after = await getEmailPreferences(tx, userId);
    await appendAudit(tx, {
      actorId: userId,
      action: "user.email_preferences_updated",
      entityType: "user",
      entityId: userId,
      before,
      after,
    });
    return after;
  });
}
