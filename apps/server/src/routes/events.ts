import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { requireUser } from "../auth/middleware";
import { parseWith } from "../lib/validate";
import { ApiRoutes, file, SESSION } from "../openapi/routes";
import { openEventStream } from "../realtime/stream";

const lastEventIdSchema = z
  .string()
  .regex(/^\d{1,18}$/, { error: "Last-Event-ID must be a notification sequence number." })
  .optional();

const stream = createRoute({
  method: "get",
  path: "/",
  operationId: "streamEvents",
  tags: ["Realtime"],
  summary: "Server-sent events for the signed-in user (notifications, changes to visible objects)",
  description:
    "Send `Last-Event-ID` (or `?lastEventId=`) to resume: events after that sequence number are replayed first.",
  security: SESSION,
  request: {
    headers: z.object({ "last-event-id": lastEventIdSchema }),
    query: z.object({ lastEventId: lastEventIdSchema }),
  },
  responses: { 200: file("text/event-stream", "An event stream.") },
});

export const eventRoutes = new ApiRoutes().handleRaw(stream, (c) => {
  const user = requireUser(c);
  const raw = c.req.header("last-event-id") || c.req.query("lastEventId") || undefined;
  const lastEventId = parseWith(lastEventIdSchema, raw);
  return openEventStream(c, user, { lastEventId: lastEventId === undefined ? null : Number(lastEventId) });
});
