import { randomUUID } from "node:crypto";
import type { SignInInput, SignUpInput } from "@tranche/domain";
import { and, eq, isNull } from "drizzle-orm";
import type { SessionUser } from "../context";
import type { Db, DbOrTx } from "../db/client";
import { passwordResets, users } from "../db/schema";
import type { Env } from "../env";
import { AppError } from "../errors";
import { appendAudit } from "../services/audit/append";
import { queueEmail } from "../services/email/queue";
import { appUrl, renderEmail } from "../services/email/template";
import { queueEmailVerification } from "../services/email-verification/verify";
import { hasUsableInvitation } from "../services/invitations/accept";
import { notify } from "../services/notifications/notify";
import { clearFailures, countAttempt } from "./failure-limits";
import { knownDeviceFor } from "./known-devices";
import { hashPassword, passwordWeaknesses, timingDummyHash, verifyPassword } from "./password";
import { enforce, hit } from "./rate-limit";
import { createSession, deleteOtherSessions, type SignedInUser, signedInUser } from "./sessions";
import { signInFailureRule } from "./sign-in-failures";

const FIVE_MINUTES = 300;

/** Per-IP limits are counted before the body is even parsed, so malformed floods count too. */
export async function limitByIp(db: Db, env: Env, action: "signup" | "signin", ip: string): Promise<void> {
  const max = action === "signup" ? env.SIGNUP_LIMIT_PER_IP : env.SIGNIN_LIMIT_PER_IP;
  await enforce(db, [{ key: `${action}:ip:${ip}`, max, windowSeconds: FIVE_MINUTES }]);
}

interface RequestMeta {
  ip: string;
  userAgent?: string | null;
  /** The hash of the browser's device cookie, if it sent one. */
  device?: string | null;
}

/**
 * Self sign-up (project owners). A taken address gets the very answer a new one gets — an id, no session — and its
 * owner an email saying someone tried (at most one an hour), so sign-up cannot be used to learn who has an account.
 */
export async function signUp(db: Db, env: Env, input: SignUpInput): Promise<{ id: string }> {
  await enforce(db, [{ key: `signup:email:${input.email}`, max: 5, windowSeconds: FIVE_MINUTES }]);
  const reasons = passwordWeaknesses(input.password, [input.email, input.name]);
  if (reasons.length) throw new AppError("weak_password", "Password is too weak.", { reasons });

  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    // An address an admin has invited is the invitation's to take: an account made first by whoever typed it would
    // turn the invitation away ("already exists") and keep the role and projects from the person it was sent to.
    if (await hasUsableInvitation(tx, input.email)) {
      const { count } = await hit(tx, { key: `signup-taken:${input.email}`, max: 1, windowSeconds: 3600 });
      if (count === 1) await queueSignUpAttemptEmail(tx, env, input.email, "invited");
      return { id: randomUUID() };
    }
    const [user] = await tx
      .insert(users)
      .values({ email: input.email, name: input.name, passwordHash, role: "project_owner" })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (!user) {
      const [owner] = await tx.select({ email: users.email }).from(users).where(eq(users.email, input.email));
      const { count } = await hit(tx, { key: `signup-taken:${input.email}`, max: 1, windowSeconds: 3600 });
      if (owner && count === 1) await queueSignUpAttemptEmail(tx, env, owner.email, "account");
      return { id: randomUUID() };
    }
    await appendAudit(tx, {
      actorId: user.id,
      action: "user.signed_up",
      entityType: "user",
      entityId: user.id,
      after: { email: input.email, name: input.name, role: "project_owner" },
    });
    await queueEmailVerification(tx, env, { id: user.id, email: input.email, name: input.name });
    await notify(tx, [user.id], {
      title: "Welcome to Tranche",
      message: `Welcome, ${input.name}. Create your first project and define its milestones to get started.`,
      category: "welcome",
      link: "/dashboard",
    });
    return user;
  });
}

/**
 * Tells the address's owner that someone tried to sign up with it (sent whatever their settings): it has an account,
 * or an invitation waiting.
 */
async function queueSignUpAttemptEmail(tx: DbOrTx, env: Env, email: string, has: "account" | "invited"): Promise<void> {
  await queueEmail(
    tx,
    email,
    "signup_attempt",
    renderEmail({
      subject: "Someone tried to sign up to Tranche with your email",
      heading: "Someone tried to sign up with your email",
      paragraphs:
        has === "account"
          ? [
              `Someone tried to create a new Tranche account with ${email}, which already has one. No account was created and nothing changed in yours.`,
              "If it was you, sign in instead; if you forgot your password, ask for a reset link on the sign-in page. If it was not you, there is nothing to do.",
            ]
          : [
              `Someone tried to create a new Tranche account with ${email}, which an administrator has invited. No account was created, and your invitation still works.`,
              "If it was you, open the invitation email and set your password from its link; if you cannot find it, ask the administrator to send it again. If it was not you, there is nothing to do.",
            ],
      action: { label: "Sign in", url: appUrl(env.PUBLIC_URL, "/login") },
      reason: `You receive this email because a sign-up was attempted with ${email} on Tranche. It is sent at most once an hour.`,
    }),
  );
}

/** Checks the password and opens a new session (a new id on every sign-in). */
export async function signIn(
  db: Db,
  env: Env,
  input: SignInInput,
  meta: RequestMeta,
): Promise<{ token: string; user: SignedInUser }> {
  const rule = signInFailureRule(env);
  const device = await knownDeviceFor(db, meta.device ?? null, input.email);
  const source = device ? { device } : { ip: meta.ip };
  // Counted before the password is checked: concurrent guesses cannot all slip under the limit.
  await countAttempt(db, rule, input.email, source);
  const [row] = await db.select().from(users).where(eq(users.email, input.email)).limit(1);
  const valid = await verifyPassword(input.password, row?.passwordHash ?? (await timingDummyHash()));
  if (!row || !valid) throw new AppError("unauthenticated", "Invalid email or password.");
  await clearFailures(db, rule, input.email, source);
  const { token } = await createSession(db, row.id, { ip: meta.ip, userAgent: meta.userAgent });
  return { token, user: signedInUser(row) };
}

/**
 * Whether `password` is the signed-in person's own, typed again to confirm a change (their password, their second
 * factor). Counted against the same limits as failed sign-ins (429 past them), so a session — a copied cookie —
 * cannot be used to guess the password it was opened with; a right one clears this source's failures.
 */
export async function passwordTypedAgain(
  db: DbOrTx,
  env: Env,
  actor: Pick<SessionUser, "id" | "email">,
  password: string,
  ip: string,
): Promise<boolean> {
  const rule = signInFailureRule(env);
  const source = { ip };
  await countAttempt(db, rule, actor.email, source);
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, actor.id));
  if (!row || !(await verifyPassword(password, row.passwordHash))) return false;
  await clearFailures(db, rule, actor.email, source);
  return true;
}

/**
 * Changes the password and ends every other session of the user. A wrong current password counts as a failed
 * sign-in (same limits, same counters): a session cannot be used to guess the password it was opened with.
 */
export async function changePassword(
  db: Db,
  env: Env,
  actor: SessionUser,
  input: { currentPassword: string; newPassword: string },
  meta: { ip: string },
): Promise<void> {
  if (!(await passwordTypedAgain(db, env, actor, input.currentPassword, meta.ip))) {
    throw new AppError("invalid_input", "Current password is incorrect.", {
      currentPassword: "Current password is incorrect.",
    });
  }
  const reasons = passwordWeaknesses(input.newPassword, [actor.email, actor.name]);
  if (reasons.length) throw new AppError("weak_password", "Password is too weak.", { reasons });
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, actor.id));
    await deleteOtherSessions(tx, actor.id, actor.sessionId);
    // A reset link already sent would set a password over this one: it stops working, as after a reset.
    await tx
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResets.userId, actor.id), isNull(passwordResets.usedAt)));
    await appendAudit(tx, {
      actorId: actor.id,
      action: "user.password_changed",
      entityType: "user",
      entityId: actor.id,
    });
  });
}
