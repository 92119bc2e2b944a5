import { emailPreferencesSchema, updateProfileSchema } from "@tranche/domain";
import { Hono } from "hono";
import { requireUser } from "../auth/middleware";
import type { AppEnv } from "../context";
import { AppError } from "../errors";
import { parseJson, pathId } from "../lib/validate";
import { getEmailPreferences, setEmailPreferences } from "../services/email/preferences";
import { getProfile, readAvatar, removeAvatar, setAvatar, updateProfile } from "../services/profile/profile";

/** The signed-in person's own profile, picture and email settings (under /api/me). */
export const profileRoutes = new Hono<AppEnv>()
  .get("/profile", async (c) => {
    const user = requireUser(c);
    return c.json(await getProfile(c.get("deps").db, user.id));
  })
  .patch("/profile", async (c) => {
    const actor = requireUser(c);
    const input = await parseJson(c, updateProfileSchema);
    const { db, env } = c.get("deps");
    return c.json(await updateProfile({ ctx: { db, env, actor }, input }));
  })
  .put("/avatar", async (c) => {
    const actor = requireUser(c);
    if (!/^image\//i.test(c.req.header("content-type") ?? "")) {
      throw new AppError("unsupported_media_type", "Send the picture as an image (PNG, JPEG or WebP).");
    }
    const bytes = Buffer.from(await c.req.arrayBuffer());
    const { db, env } = c.get("deps");
    return c.json(await setAvatar({ ctx: { db, env, actor }, bytes }));
  })
  .delete("/avatar", async (c) => {
    const actor = requireUser(c);
    const { db, env } = c.get("deps");
    return c.json(await removeAvatar({ ctx: { db, env, actor } }));
  })
  .get("/email-preferences", async (c) => {
    const user = requireUser(c);
    return c.json(await getEmailPreferences(c.get("deps").db, user.id));
  })
  .put("/email-preferences", async (c) => {
    const user = requireUser(c);
    const input = await parseJson(c, emailPreferencesSchema);
    return c.json(await setEmailPreferences(c.get("deps").db, user.id, input));
  });

/** Anyone signed in may see a person's picture (it is shown beside their name). */
export const avatarRoutes = new Hono<AppEnv>().get("/:id/avatar", async (c) => {
  requireUser(c);
  const userId = pathId(c, "id", "User");
  const { contentType, bytes } = await readAvatar(c.get("deps").db, userId);
  return c.body(new Uint8Array(bytes), 200, {
    "Content-Type": contentType,
    "Cache-Control": "private, max-age=86400",
    "X-Content-Type-Options": "nosniff",
  });
});
