import { Hono } from "hono";
import { z } from "zod";
import { requireUser } from "../auth/middleware";
import type { AppEnv } from "../context";
import { parseWith } from "../lib/validate";
import { openEventStream } from "../realtime/stream";

const lastEventIdSchema = z
  .string()
  .regex(/^\d{1,18}$/, { error: "Last-Event-ID must be a notification sequence number." })
  .optional();

export const eventRoutes = new Hono<AppEnv>().get("/", (c) => {
  const user = requireUser(c);
  const raw = c.req.header("last-event-id") || c.req.query("lastEventId") || undefined;
  const lastEventId = parseWith(lastEventIdSchema, raw);
  return openEventStream(c, user, { lastEventId: lastEventId === undefined ? null : Number(lastEventId) });
});
