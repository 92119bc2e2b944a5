import { createRoute } from "@hono/zod-openapi";
import { emailPreferencesDtoSchema, emailPreferencesSchema, profileSchema, updateProfileSchema } from "@tranche/domain";
import { requireUser } from "../auth/middleware";
import { AppError } from "../errors";
import { ApiRoutes, body, errors, file, idParams, json, param, SESSION } from "../openapi/routes";
import { getEmailPreferences, setEmailPreferences } from "../services/email/preferences";
import { getProfile, readAvatar, removeAvatar, setAvatar, updateProfile } from "../services/profile/profile";

const tags = ["Account"];
const preferences = { verification: "instant", releases: "instant", projects: "digest", account: "digest" };

const getProfileRoute = createRoute({
  method: "get",
  path: "/profile",
  operationId: "getProfile",
  tags,
  summary: "The signed-in person's profile",
  security: SESSION,
  responses: { 200: json(profileSchema, "The profile.") },
});

const updateProfileRoute = createRoute({
  method: "patch",
  path: "/profile",
  operationId: "updateProfile",
  tags,
  summary: "Change name and organization (and, for verifiers, expertise)",
  security: SESSION,
  request: {
    body: {
      content: {
        "application/json": {
          schema: updateProfileSchema,
          example: { name: "Maria Santos", organization: "GreenCheck Assurance", expertise: ["Solar"] },
        },
      },
      required: true,
    },
  },
  responses: { 200: json(profileSchema, "The profile.") },
});

const setAvatarRoute = createRoute({
  method: "put",
  path: "/avatar",
  operationId: "setAvatar",
  tags,
  summary: "Upload a picture: the body is the image itself (PNG, JPEG or WebP, at most 200 KB)",
  security: SESSION,
  request: {
    body: { required: true, content: { "image/*": { schema: { type: "string", contentMediaType: "image/*" } } } },
  },
  responses: { 200: json(profileSchema, "The profile with its new avatar URL."), ...errors(400, 415, 422) },
});

const removeAvatarRoute = createRoute({
  method: "delete",
  path: "/avatar",
  operationId: "removeAvatar",
  tags,
  summary: "Remove the picture",
  security: SESSION,
  responses: { 200: json(profileSchema, "The profile.") },
});

const getPreferences = createRoute({
  method: "get",
  path: "/email-preferences",
  operationId: "getEmailPreferences",
  tags,
  summary: "Email per notification category: instant, daily digest or off",
  security: SESSION,
  responses: { 200: json(emailPreferencesDtoSchema, "The settings (defaults where none was chosen).") },
});

const setPreferences = createRoute({
  method: "put",
  path: "/email-preferences",
  operationId: "setEmailPreferences",
  tags,
  summary: "Choose email per notification category",
  security: SESSION,
  request: {
    body: { content: { "application/json": { schema: emailPreferencesSchema, example: preferences } }, required: true },
  },
  responses: { 200: json(emailPreferencesDtoSchema, "The settings.") },
});

/** The signed-in person's own profile, picture and email settings (under /api/me). */
export const profileRoutes = new ApiRoutes()
  .handle(getProfileRoute, async (c) => {
    const user = requireUser(c);
    return c.json(await getProfile(c.get("deps").db, user.id), 200);
  })
  .handle(updateProfileRoute, async (c) => {
    const actor = requireUser(c);
    const input = await body(c, updateProfileRoute);
    const { db, env } = c.get("deps");
    return c.json(await updateProfile({ ctx: { db, env, actor }, input }), 200);
  })
  .handle(setAvatarRoute, async (c) => {
    const actor = requireUser(c);
    if (!/^image\//i.test(c.req.header("content-type") ?? "")) {
      throw new AppError("unsupported_media_type", "Send the picture as an image (PNG, JPEG or WebP).");
    }
    const bytes = Buffer.from(await c.req.arrayBuffer());
    const { db, env } = c.get("deps");
    return c.json(await setAvatar({ ctx: { db, env, actor }, bytes }), 200);
  })
  .handle(removeAvatarRoute, async (c) => {
    const actor = requireUser(c);
    const { db, env } = c.get("deps");
    return c.json(await removeAvatar({ ctx: { db, env, actor } }), 200);
  })
  .handle(getPreferences, async (c) => {
    const user = requireUser(c);
    return c.json(await getEmailPreferences(c.get("deps").db, user.id), 200);
  })
  .handle(setPreferences, async (c) => {
    const user = requireUser(c);
    const input = await body(c, setPreferences);
    return c.json(await setEmailPreferences(c.get("deps").db, user.id, input), 200);
  });

const avatar = createRoute({
  method: "get",
  path: "/{id}/avatar",
  operationId: "getAvatar",
  tags: ["Users"],
  summary: "A person's picture (anyone signed in: it is shown beside their name)",
  security: SESSION,
  request: { params: idParams },
  responses: { 200: file("image/*", "The image.") },
});

export const avatarRoutes = new ApiRoutes().handleRaw(avatar, async (c) => {
  requireUser(c);
  const userId = param(c, "id", "User");
  const { contentType, bytes } = await readAvatar(c.get("deps").db, userId);
  return c.body(new Uint8Array(bytes), 200, {
    "Content-Type": contentType,
    "Cache-Control": "private, max-age=86400",
    "X-Content-Type-Options": "nosniff",
  });
});
