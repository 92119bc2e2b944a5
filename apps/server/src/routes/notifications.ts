import { Hono } from "hono";
import { requireUser } from "../auth/middleware";
import type { AppEnv } from "../context";
import { parseQuery, pathId } from "../lib/validate";
import { listNotifications, listNotificationsQuery, unreadCount } from "../services/notifications/list";
import { markAllNotificationsRead, markNotificationRead } from "../services/notifications/mark-read";

export const notificationRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const actor = requireUser(c);
    const input = parseQuery(c, listNotificationsQuery);
    const { db, env } = c.get("deps");
    return c.json(await listNotifications({ ctx: { db, env, actor }, input }));
  })
  .get("/unread-count", async (c) => {
    const actor = requireUser(c);
    const { db, env } = c.get("deps");
    return c.json(await unreadCount({ ctx: { db, env, actor } }));
  })
  .post("/read-all", async (c) => {
    const actor = requireUser(c);
    const { db, env } = c.get("deps");
    return c.json(await markAllNotificationsRead({ ctx: { db, env, actor } }));
  })
  .post("/:id/read", async (c) => {
    const actor = requireUser(c);
    const id = pathId(c, "id", "Notification");
    const { db, env } = c.get("deps");
    return c.json(await markNotificationRead({ ctx: { db, env, actor }, id }));
  });
