import { createRoute } from "@hono/zod-openapi";
import { userSchema } from "@tranche/domain";
import { requireUser } from "../auth/middleware";
import { ApiRoutes, empty, errors, json, SESSION } from "../openapi/routes";
import { resendEmailVerification } from "../services/email-verification/verify";
import { toUserDto } from "../services/users/dto";

const getMe = createRoute({
  method: "get",
  path: "/",
  operationId: "getMe",
  tags: ["Auth"],
  summary: "The signed-in user",
  security: SESSION,
  responses: { 200: json(userSchema, "The user.") },
});

const resendVerification = createRoute({
  method: "post",
  path: "/email-verification",
  operationId: "resendEmailVerification",
  tags: ["Auth"],
  summary: "Email the signed-in person a new link to confirm their address",
  security: SESSION,
  responses: { 202: empty("A new link is on its way; earlier ones stop working."), ...errors(422, 429) },
});

export const meRoutes = new ApiRoutes()
  .handle(getMe, (c) => c.json(toUserDto(requireUser(c)), 200))
  .handleRaw(resendVerification, async (c) => {
    const { db, env } = c.get("deps");
    await resendEmailVerification(db, env, requireUser(c));
    return c.body(null, 202);
  });
