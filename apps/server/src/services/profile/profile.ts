import {
  AVATAR_MAX_BYTES,
  type AVATAR_TYPES,
  type ProfileDto,
  type Role,
  type UpdateProfileInput,
} from "@tranche/domain";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import type { ServiceContext } from "../../context";
import type { DbOrTx } from "../../db/client";
import { userAvatars, users } from "../../db/schema";
import { AppError, notFound } from "../../errors";
import { appendAudit } from "../audit/append";

export async function getProfile(db: DbOrTx, userId: string): Promise<ProfileDto> {
  const [row] = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      role: users.role,
      organization: users.organization,
      avatar: users.avatarUrl,
      expertise: users.expertise,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) throw notFound("User");
  return { ...row, role: row.role as Role };
}

/** Name and organization for everyone; expertise only for verifiers (it is what the verifier list shows). */
export async function updateProfile({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: UpdateProfileInput;
}): Promise<ProfileDto> {
  if (input.expertise !== undefined && ctx.actor.role !== "verifier") {
    throw new AppError("invalid_input", "expertise: Only verifiers list areas of expertise.", {
      expertise: "Only verifiers list areas of expertise.",
    });
  }
  return ctx.db.transaction(async (tx) => {
    const before = await getProfile(tx, ctx.actor.id);
    const expertise = input.expertise ? [...new Set(input.expertise)] : before.expertise;
    await tx
      .update(users)
      .set({ name: input.name, organization: input.organization, expertise, updatedAt: new Date() })
      .where(eq(users.id, ctx.actor.id));
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "user.profile_updated",
      entityType: "user",
      entityId: ctx.actor.id,
      before: { name: before.name, organization: before.organization, expertise: before.expertise },
      after: { name: input.name, organization: input.organization, expertise },
    });
    return getProfile(tx, ctx.actor.id);
  });
}

type AvatarType = (typeof AVATAR_TYPES)[number];

/** Images are recognised by their first bytes, not by what the browser claims. */
function sniff(bytes: Buffer): AvatarType | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "image/png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (bytes.subarray(0, 4).toString("latin1") === "RIFF" && bytes.subarray(8, 12).toString("latin1") === "WEBP") {
    return "image/webp";
  }
  return null;
}

export const AVATAR_TOO_LARGE = "The picture must be at most 200 KB.";
/** An avatar is shown small; a bigger picture would cost seconds of decoding for a 200 KB upload. */
export const AVATAR_MAX_SIDE = 4096;
export const AVATAR_TOO_MANY_PIXELS = `The picture must be at most ${AVATAR_MAX_SIDE} × ${AVATAR_MAX_SIDE} pixels.`;
export const AVATAR_UNREADABLE = "The picture could not be read: it is damaged or not a whole PNG, JPEG or WebP image.";

const invalidAvatar = (message: string) => new AppError("invalid_input", message, { avatar: message });

/**
 * Refuses bytes that only begin like an image (a PNG signature, then anything): the picture must be of the type its
 * first bytes name, of a sane size, and decode to its last pixel.
 */
async function checkDecodes(bytes: Buffer, type: AvatarType): Promise<void> {
  const image = sharp(bytes, { failOn: "error" });
  const meta = await image.metadata().catch(() => null);
  if (!meta || `image/${meta.format}` !== type) throw invalidAvatar(AVATAR_UNREADABLE);
  if (meta.width > AVATAR_MAX_SIDE || meta.height > AVATAR_MAX_SIDE) throw invalidAvatar(AVATAR_TOO_MANY_PIXELS);
  const decodes = await image.stats().then(
    () => true,
    () => false,
  );
  if (!decodes) throw invalidAvatar(AVATAR_UNREADABLE);
}

/** Stores a new picture (PNG, JPEG or WebP up to 200 KB); the user's avatar URL changes with it. */
export async function setAvatar({ ctx, bytes }: { ctx: ServiceContext; bytes: Buffer }): Promise<ProfileDto> {
  if (bytes.length === 0) throw invalidAvatar("Choose an image file.");
  if (bytes.length > AVATAR_MAX_BYTES) {
    throw new AppError("payload_too_large", AVATAR_TOO_LARGE, {
      avatar: AVATAR_TOO_LARGE,
    });
  }
  const contentType = sniff(bytes);
  if (!contentType) throw invalidAvatar("Use a PNG, JPEG or WebP image.");
  await checkDecodes(bytes, contentType);
  return ctx.db.transaction(async (tx) => {
    const data = bytes.toString("base64");
    await tx
      .insert(userAvatars)
      .values({ userId: ctx.actor.id, contentType, data })
      .onConflictDoUpdate({ target: userAvatars.userId, set: { contentType, data, updatedAt: new Date() } });
    const avatarUrl = `/api/users/${ctx.actor.id}/avatar?v=${Date.now().toString(36)}`;
    await tx.update(users).set({ avatarUrl, updatedAt: new Date() }).where(eq(users.id, ctx.actor.id));
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "user.avatar_changed",
      entityType: "user",
      entityId: ctx.actor.id,
      after: { contentType, bytes: bytes.length },
    });
    return getProfile(tx, ctx.actor.id);
  });
}

export async function removeAvatar({ ctx }: { ctx: ServiceContext }): Promise<ProfileDto> {
  return ctx.db.transaction(async (tx) => {
    await tx.delete(userAvatars).where(eq(userAvatars.userId, ctx.actor.id));
    await tx.update(users).set({ avatarUrl: null, updatedAt: new Date() }).where(eq(users.id, ctx.actor.id));
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "user.avatar_removed",
      entityType: "user",
      entityId: ctx.actor.id,
    });
    return getProfile(tx, ctx.actor.id);
  });
}

export async function readAvatar(db: DbOrTx, userId: string): Promise<{ contentType: string; bytes: Buffer }> {
  const [row] = await db.select().from(userAvatars).where(eq(userAvatars.userId, userId));
  if (!row) throw notFound("Picture");
  return { contentType: row.contentType, bytes: Buffer.from(row.data, "base64") };
}
