import { Hono } from "hono";
import { requireUser } from "../auth/middleware";
import type { AppEnv } from "../context";
import { resendEmailVerification } from "../services/email-verification/verify";
import { toUserDto } from "../services/users/dto";

export const meRoutes = new Hono<AppEnv>()
  .get("/", (c) => c.json(toUserDto(requireUser(c))))
  // A new link to confirm the signed-in person's address.
  .post("/email-verification", async (c) => {
    const { db, env } = c.get("deps");
    await resendEmailVerification(db, env, requireUser(c));
    return c.body(null, 202);
  });
