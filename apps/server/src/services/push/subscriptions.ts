// A person's browsers that enabled push ("Enable push on this device"): one row per push service endpoint.
import { isIP } from "node:net";
import { and, eq } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { pushSubscriptions } from "../../db/schema";
import { AppError } from "../../errors";
import { appendAudit } from "../audit/append";
import { describeDevice } from "../sessions/manage";
import { isForbiddenAddress } from "../webhooks/address";

export interface SubscriptionInput {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

const refused = (message: string) => new AppError("invalid_input", message, { endpoint: message });

/**
 * A push endpoint is where the server will later POST: it must be https, carry no user name or password (a push
 * service never asks for one; they would be sent along and kept with the endpoint), and must not name this host or
 * the private network — a one-label name ("intranet") is only ever a local one (unless PUSH_ALLOW_PRIVATE). Whether
 * a host name resolves is not asked here: it is resolved and checked again at every send.
 */
function checkEndpoint(raw: string, allowPrivate: boolean): void {
  const url = new URL(raw);
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) {
    throw refused("The push service's URL must use https.");
  }
  if (url.username !== "" || url.password !== "") {
    throw refused("The push service's URL must not carry a user name or password.");
  }
  // "localhost.", "LOCALHOST" and any name under .localhost are this host too (RFC 6761).
  const host = url.hostname
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "")
    .toLowerCase();
  const loopbackName = host === "localhost" || host.endsWith(".localhost");
  if (!allowPrivate && (loopbackName || (isIP(host) && isForbiddenAddress(host)))) {
    throw refused("The push service's URL names a private or loopback address.");
  }
  if (!allowPrivate && !isIP(host) && !host.includes(".")) {
    throw refused("The push service's URL must name a public host (a name with a dot).");
  }
}

/**
 * Enables push for this browser, for as long as the caller's session lasts (signing out ends it); a browser that was
 * another person's, or another session's, moves to this one (one device, one user). Audited with the device and the
 * push service's origin (the endpoint itself is a capability, kept out of the record), and whose browser it was when
 * it moved. The browser sends its subscription again on each signed-in page: one this session already has, with the
 * same keys, is left as it is and not recorded again.
 */
export async function subscribe(
  ctx: ServiceContext,
  input: SubscriptionInput,
  userAgent: string | null,
): Promise<{ id: string; device: string }> {
  checkEndpoint(input.endpoint, ctx.env.PUSH_ALLOW_PRIVATE);
  const values = {
    userId: ctx.actor.id,
    sessionId: ctx.actor.sessionId,
    p256dh: input.keys.p256dh,
    auth: input.keys.auth,
    device: describeDevice(userAgent),
  };
  return ctx.db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, input.endpoint))
      .for("update");
    if (
      before &&
      before.sessionId === values.sessionId &&
      before.p256dh === values.p256dh &&
      before.auth === values.auth &&
      before.device === values.device
    ) {
      return { id: before.id, device: before.device };
    }
    const [row] = await tx
      .insert(pushSubscriptions)
      .values({ endpoint: input.endpoint, ...values })
      .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { ...values, createdAt: new Date() } })
      .returning({ id: pushSubscriptions.id, device: pushSubscriptions.device });
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "push.subscribed",
      entityType: "user",
      entityId: ctx.actor.id,
      after: {
        subscriptionId: row.id,
        device: row.device,
        service: new URL(input.endpoint).origin,
        ...(before && before.userId !== ctx.actor.id ? { movedFrom: before.userId } : {}),
      },
    });
    return row;
  });
}

/** Disables push for this browser (nothing to do when it was not on: the answer is the same, and nothing is recorded). */
export async function unsubscribe(ctx: ServiceContext, endpoint: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const removed = await tx
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.userId, ctx.actor.id)))
      .returning({ id: pushSubscriptions.id, device: pushSubscriptions.device });
    for (const row of removed) {
      await appendAudit(tx, {
        actorId: ctx.actor.id,
        action: "push.unsubscribed",
        entityType: "user",
        entityId: ctx.actor.id,
        before: { subscriptionId: row.id, device: row.device, service: new URL(endpoint).origin },
      });
    }
  });
}
