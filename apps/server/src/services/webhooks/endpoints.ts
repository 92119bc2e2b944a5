import { randomBytes } from "node:crypto";
import type {
  createWebhookEndpointSchema,
  updateWebhookEndpointSchema,
  WebhookEndpointDto,
  WebhookEndpointWithSecretDto,
  WebhookEventType,
} from "@tranche/domain";
import { desc, eq } from "drizzle-orm";
import type { z } from "zod";
import type { Deps, ServiceContext } from "../../context";
import type { Tx } from "../../db/client";
import { webhookEndpoints } from "../../db/schema";
import { AppError, forbidden, notFound } from "../../errors";
import { appendAudit } from "../audit/append";
import { resolveTarget, TargetRefused } from "./address";

type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** How long the previous secret keeps signing beside a rotated one, so receivers can switch without a gap. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

export interface WebhookServiceContext extends ServiceContext {
  deps: Pick<Deps, "webhookSecrets" | "env">;
}

export function toEndpointDto(row: EndpointRow, now = new Date()): WebhookEndpointDto {
  const previousLive = row.previousSecretExpiresAt && row.previousSecretExpiresAt > now;
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEventType[],
    description: row.description,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    previousSecretExpiresAt: previousLive ? (row.previousSecretExpiresAt?.toISOString() ?? null) : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the audit record keeps of an endpoint: never its secret. */
const auditable = (row: EndpointRow) => ({
  url: row.url,
  events: row.events,
  description: row.description,
  enabled: row.enabled,
});

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
export function newSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

function requireAdmin(ctx: ServiceContext) {
  if (ctx.actor.role !== "admin") throw forbidden("Only an admin can manage webhooks.");
}

/** Refuses a URL that is not https, or resolves to a private address (unless WEBHOOK_ALLOW_PRIVATE). */
async function checkUrl(ctx: WebhookServiceContext, url: string): Promise<void> {
  try {
    await resolveTarget(url, ctx.deps.env.WEBHOOK_ALLOW_PRIVATE);
  } catch (error) {
    if (error instanceof TargetRefused) {
      throw new AppError("invalid_input", `url: ${error.message}`, { url: error.message });
    }
    throw error;
  }
}

export async function lockEndpoint(tx: Tx, id: string): Promise<EndpointRow> {
  const [row] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).for("update");
  if (!row) throw notFound("Webhook endpoint");
  return row;
}

export async function createEndpoint(
  ctx: WebhookServiceContext,
  input: z.output<typeof createWebhookEndpointSchema>,
): Promise<WebhookEndpointWithSecretDto> {
  requireAdmin(ctx);
  await checkUrl(ctx, input.url);
  const secret = newSecret();
  const row = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(webhookEndpoints)
      .values({
        url: input.url,
        events: input.events,
        description: input.description || null,
        secretEnc: ctx.deps.webhookSecrets.seal(secret),
        createdBy: ctx.actor.id,
      })
      .returning();
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "webhook.endpoint_created",
      entityType: "webhook_endpoint",
      entityId: created.id,
      after: auditable(created),
    });
    return created;
  });
  return { ...toEndpointDto(row), secret };
}

export async function listEndpoints(ctx: ServiceContext): Promise<{ items: WebhookEndpointDto[] }> {
  requireAdmin(ctx);
  const rows = await ctx.db.select().from(webhookEndpoints).orderBy(desc(webhookEndpoints.createdAt));
  return { items: rows.map((row) => toEndpointDto(row)) };
}

export async function getEndpoint(ctx: ServiceContext, id: string): Promise<WebhookEndpointDto> {
  requireAdmin(ctx);
  const [row] = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  if (!row) throw notFound("Webhook endpoint");
  return toEndpointDto(row);
}

export async function updateEndpoint(
  ctx: WebhookServiceContext,
  id: string,
  input: z.output<typeof updateWebhookEndpointSchema>,
): Promise<WebhookEndpointDto> {
  requireAdmin(ctx);
  if (input.url !== undefined) await checkUrl(ctx, input.url);
  const row = await ctx.db.transaction(async (tx) => {
    const current = await lockEndpoint(tx, id);
    const [updated] = await tx
      .update(webhookEndpoints)
      .set({
        ...(input.url !== undefined ? { url: input.url } : {}),
        ...(input.events !== undefined ? { events: input.events } : {}),
        ...(input.description !== undefined ? { description: input.description || null } : {}),
        // Turning it on (again) clears why Tranche turned it off.
        ...(input.enabled !== undefined ? { enabled: input.enabled, disabledReason: null } : {}),
        updatedAt: new Date(),
      })
      .where(eq(webhookEndpoints.id, id))
      .returning();
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "webhook.endpoint_updated",
      entityType: "webhook_endpoint",
      entityId: id,
      before: auditable(current),
      after: auditable(updated),
    });
    return updated;
  });
  return toEndpointDto(row);
}

export async function deleteEndpoint(ctx: ServiceContext, id: string): Promise<void> {
  requireAdmin(ctx);
  await ctx.db.transaction(async (tx) => {
    const current = await lockEndpoint(tx, id);
    // Its deliveries go with it; their outbox messages find nothing to send and finish.
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "webhook.endpoint_deleted",
      entityType: "webhook_endpoint",
      entityId: id,
      before: auditable(current),
    });
  });
}

/** A new secret, shown once; the old one keeps signing beside it for 24 hours. */
export async function rotateSecret(ctx: WebhookServiceContext, id: string): Promise<WebhookEndpointWithSecretDto> {
  requireAdmin(ctx);
  const secret = newSecret();
  const now = new Date();
  const row = await ctx.db.transaction(async (tx) => {
    const current = await lockEndpoint(tx, id);
    const [updated] = await tx
      .update(webhookEndpoints)
      .set({
        secretEnc: ctx.deps.webhookSecrets.seal(secret),
        previousSecretEnc: current.secretEnc,
        previousSecretExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS),
        updatedAt: now,
      })
      .where(eq(webhookEndpoints.id, id))
      .returning();
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "webhook.secret_rotated",
      entityType: "webhook_endpoint",
      entityId: id,
      after: { previousSecretExpiresAt: updated.previousSecretExpiresAt },
    });
    return updated;
  });
  return { ...toEndpointDto(row, now), secret };
}

/** The secrets that sign a delivery now: the current one, and the previous one during its grace period. */
export function signingSecrets(deps: Pick<Deps, "webhookSecrets">, row: EndpointRow, now = new Date()): string[] {
  const secrets = [deps.webhookSecrets.open(row.secretEnc)];
  if (row.previousSecretEnc && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now) {
    secrets.push(deps.webhookSecrets.open(row.previousSecretEnc));
  }
  return secrets;
}
