import { z } from "zod";

/** The event types an endpoint may subscribe to (the body is `{ id, type, createdAt, data }`). */
export const WEBHOOK_EVENT_TYPES = [
  "release.instructed",
  "release.settled",
  "release.failed",
  "release.cancelled",
  "milestone.verified",
  "milestone.rejected",
  "project.created",
  "audit.checkpoint",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent by "Send test event" only; no endpoint subscribes to it. */
export const WEBHOOK_TEST_EVENT = "webhook.test";

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  "release.instructed": "Release instructed",
  "release.settled": "Release settled",
  "release.failed": "Release failed",
  "release.cancelled": "Release cancelled",
  "milestone.verified": "Milestone verified",
  "milestone.rejected": "Milestone rejected",
  "project.created": "Project created",
  "audit.checkpoint": "Audit checkpoint",
};

const webhookUrl = z
  .string({ error: "URL is required." })
  .trim()
  .min(1, { error: "URL is required." })
  .max(2000, { error: "URL must be at most 2000 characters." })
  .pipe(
    z.url({
      protocol: /^https?$/,
      hostname: /^.+$/,
      error: "Enter a full http(s) URL, e.g. https://custodian.example/webhooks.",
    }),
  )
  .refine((value) => !/^[a-z]+:\/\/[^/?#]*@/i.test(value), {
    error: "The URL must not carry a user name or password.",
  });

const webhookEvents = z
  .array(z.string({ error: "Each event type must be text." }).max(100), { error: "events must be a list." })
  .min(1, { error: "Choose at least one event type." })
  .max(WEBHOOK_EVENT_TYPES.length * 2, { error: "Too many event types." })
  .superRefine((values, ctx) => {
    const unknown = values.filter((v) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(v));
    if (unknown.length > 0) {
      ctx.addIssue({
        code: "custom",
        message: `Unknown event type ${unknown.map((v) => `"${v}"`).join(", ")}; use ${WEBHOOK_EVENT_TYPES.join(", ")}.`,
      });
    }
  })
  .transform((values) => WEBHOOK_EVENT_TYPES.filter((type) => values.includes(type)));

const description = z
  .string({ error: "Description must be text." })
  .trim()
  .max(500, { error: "Description must be at most 500 characters." });

export const createWebhookEndpointSchema = z.strictObject({
  url: webhookUrl,
  events: webhookEvents,
  description: description.optional(),
});
export type CreateWebhookEndpointInput = z.input<typeof createWebhookEndpointSchema>;

export const updateWebhookEndpointSchema = z
  .strictObject({
    url: webhookUrl,
    events: webhookEvents,
    description,
    enabled: z.boolean({ error: "enabled must be true or false." }),
  })
  .partial()
  .refine((value) => Object.keys(value).length > 0, {
    error: "Send at least one of url, events, description, enabled.",
  });
export type UpdateWebhookEndpointInput = z.input<typeof updateWebhookEndpointSchema>;
