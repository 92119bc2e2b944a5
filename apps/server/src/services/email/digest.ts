import { sql } from "drizzle-orm";
import type { Deps } from "../../context";
import { queryRows } from "../../db/client";
import { emailDigests } from "../../db/schema";
import { periodicTask } from "../../lib/periodic";
import { emailCategoryOf, getEmailPreferences } from "./preferences";
import { queueEmail } from "./queue";
import { appUrl, renderEmail } from "./template";

const DAY_MS = 86_400_000;
/** A digest lists this many notifications and counts the rest. */
const DIGEST_ITEMS = 30;
/** A first digest reaches back this far. */
const FIRST_DIGEST_DAYS = 7;

/** The most recent digest time (DIGEST_HOUR_UTC today, or yesterday if that is still ahead). */
export function lastDigestTime(at: Date, hourUtc: number): Date {
  const today = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate(), hourUtc);
  return new Date(today <= at.getTime() ? today : today - DAY_MS);
}

interface Pending {
  user_id: string;
  email: string;
  seq: string | number;
  title: string;
  message: string;
  category: string;
}

/**
 * Queues each person's daily digest once the day's digest time has passed: the notifications since their last
 * digest in the categories they set to "Daily digest". A person is claimed in the same transaction that queues
 * their email, so several processes (or a rerun) send one digest a day. Returns how many digests were queued.
 */
export async function queueDigests(deps: Pick<Deps, "db" | "env">, at: Date): Promise<number> {
  const { db, env } = deps;
  const due = lastDigestTime(at, env.DIGEST_HOUR_UTC);
  const rows = await queryRows<Pending>(
    db,
    sql`select n.user_id, u.email, n.seq, n.title, n.message, n.category
        from notifications n
        join users u on u.id = n.user_id
        left join email_digests d on d.user_id = n.user_id
        where n.seq > coalesce(d.through_seq, 0)
          and (d.sent_at is null or d.sent_at < ${due.toISOString()})
          and n.created_at <= ${due.toISOString()}
          and (d.user_id is not null or n.created_at > ${new Date(due.getTime() - FIRST_DIGEST_DAYS * DAY_MS).toISOString()})
        order by n.user_id, n.seq`,
  );
  const byUser = new Map<string, Pending[]>();
  for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row]);
  let queued = 0;
  for (const [userId, items] of byUser) {
    const preferences = await getEmailPreferences(db, userId);
    const wanted = items.filter((item) => preferences[emailCategoryOf(item.category)] === "digest");
    const throughSeq = Math.max(...items.map((item) => Number(item.seq)));
    const sent = await db.transaction(async (tx) => {
      const claimed = await tx
        .insert(emailDigests)
        .values({ userId, throughSeq, sentAt: due })
        .onConflictDoUpdate({
          target: emailDigests.userId,
          set: { throughSeq: sql`excluded.through_seq`, sentAt: sql`excluded.sent_at` },
          setWhere: sql`${emailDigests.sentAt} < excluded.sent_at`,
        })
        .returning({ userId: emailDigests.userId });
      if (claimed.length === 0 || wanted.length === 0) return false;
      const shown = wanted.slice(0, DIGEST_ITEMS);
      const more = wanted.length - shown.length;
      await queueEmail(
        tx,
        items[0].email,
        "digest",
        renderEmail({
          subject: `Your Tranche digest: ${wanted.length} update${wanted.length === 1 ? "" : "s"}`,
          heading: "What happened since your last digest",
          paragraphs: more > 0 ? [`The latest ${shown.length} are listed; ${more} more are in Tranche.`] : [],
          items: shown.map((item) => ({ title: item.title, detail: item.message })),
          action: { label: "Open notifications", url: appUrl(env.PUBLIC_URL, "/notifications") },
          reason:
            "You receive this daily digest because some of your email notifications are set to Daily digest. Change them in Tranche under Account → Email notifications.",
        }),
      );
      return true;
    });
    if (sent) queued++;
  }
  return queued;
}

/** Checks every few minutes whether digests are due (any process may; claims keep it to one each). */
export function createDigestScheduler(deps: Deps, options: { everyMs?: number; now?: () => Date } = {}) {
  const { everyMs = 300_000, now = () => new Date() } = options;
  return periodicTask({
    everyMs,
    run: async () => {
      await queueDigests(deps, now());
    },
    idle: undefined,
    logger: deps.logger,
    failure: "digest run failed",
    runAtStart: true,
  });
}
