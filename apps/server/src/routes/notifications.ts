import { createRoute } from "@hono/zod-openapi";
import { markedReadSchema, notificationSchema, pageOf, unreadCountSchema } from "@tranche/domain";
import { serviceContext } from "../auth/middleware";
import { ApiRoutes, idParams, json, param, query, SESSION } from "../openapi/routes";
import { listNotifications, listNotificationsQuery, unreadCount } from "../services/notifications/list";
import { markAllNotificationsRead, markNotificationRead } from "../services/notifications/mark-read";

const tags = ["Notifications"];
const params = idParams;

const list = createRoute({
  method: "get",
  path: "/",
  operationId: "listNotifications",
  tags,
  summary: "The signed-in user's notifications, newest first",
  security: SESSION,
  request: { query: listNotificationsQuery },
  responses: { 200: json(pageOf(notificationSchema), "A page of notifications.") },
});

const countUnread = createRoute({
  method: "get",
  path: "/unread-count",
  operationId: "countUnreadNotifications",
  tags,
  summary: "How many notifications are unread",
  security: SESSION,
  responses: { 200: json(unreadCountSchema, "The count.") },
});

const readAll = createRoute({
  method: "post",
  path: "/read-all",
  operationId: "markAllNotificationsRead",
  tags,
  summary: "Mark every notification read",
  security: SESSION,
  responses: { 200: json(markedReadSchema, "How many were unread.") },
});

const readOne = createRoute({
  method: "post",
  path: "/{id}/read",
  operationId: "markNotificationRead",
  tags,
  summary: "Mark one notification read",
  security: SESSION,
  request: { params },
  responses: { 200: json(notificationSchema, "The notification, read.") },
});

export const notificationRoutes = new ApiRoutes()
  .handle(list, async (c) => {
    const ctx = serviceContext(c);
    return c.json(await listNotifications({ ctx, input: query(c, list) }), 200);
  })
  .handle(countUnread, async (c) => c.json(await unreadCount({ ctx: serviceContext(c) }), 200))
  .handle(readAll, async (c) => c.json(await markAllNotificationsRead({ ctx: serviceContext(c) }), 200))
  .handle(readOne, async (c) => {
    const ctx = serviceContext(c);
    return c.json(await markNotificationRead({ ctx, id: param(c, "id", "Notification") }), 200);
  });
