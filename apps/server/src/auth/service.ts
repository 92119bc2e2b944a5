import type { Role, SignInInput, SignUpInput } from "@tranche/domain";
import { eq } from "drizzle-orm";
import type { SessionUser } from "../context";
import type { Db } from "../db/client";
import { users } from "../db/schema";
import type { Env } from "../env";
import { AppError } from "../errors";
import { appendAudit } from "../services/audit/append";
import { notify } from "../services/notifications/notify";
import { assertMayTry, clearFailures, recordFailure } from "./failure-limits";
import { hashPassword, passwordWeaknesses, timingDummyHash, verifyPassword } from "./password";
import { enforce } from "./rate-limit";
import { createSession, deleteOtherSessions } from "./sessions";
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
}

export async function signUp(db: Db, input: SignUpInput): Promise<{ id: string }> {
  await enforce(db, [{ key: `signup:email:${input.email}`, max: 5, windowSeconds: FIVE_MINUTES }]);
  const reasons = passwordWeaknesses(input.password, [input.email, input.name]);
  if (reasons.length) throw new AppError("weak_password", "Password is too weak.", { reasons });

  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, input.email)).limit(1);
    if (existing)
      throw new AppError("conflict", "An account with this email already exists.", {
        email: "An account with this email already exists.",
      });
    const [user] = await tx
      .insert(users)
      .values({ email: input.email, name: input.name, passwordHash, role: "project_owner" })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (!user)
      throw new AppError("conflict", "An account with this email already exists.", {
        email: "An account with this email already exists.",
      });
    await appendAudit(tx, {
      actorId: user.id,
      action: "user.signed_up",
      entityType: "user",
      entityId: user.id,
      after: { email: input.email, name: input.name, role: "project_owner" },
    });
    await notify(tx, [user.id], {
      title: "Welcome to Tranche",
      message: `Welcome, ${input.name}. Create your first project and define its milestones to get started.`,
      category: "welcome",
      link: "/dashboard",
    });
    return user;
  });
}

/** Checks the password and opens a new session (a new id on every sign-in). */
export async function signIn(
  db: Db,
  env: Env,
  input: SignInInput,
  meta: RequestMeta,
): Promise<{ token: string; user: Omit<SessionUser, "sessionId" | "mfaVerifiedAt"> }> {
  const rule = signInFailureRule(env);
  await assertMayTry(db, rule, input.email, meta.ip);
  const [row] = await db.select().from(users).where(eq(users.email, input.email)).limit(1);
  const valid = await verifyPassword(input.password, row?.passwordHash ?? (await timingDummyHash()));
  if (!row || !valid) {
    await recordFailure(db, rule, input.email, meta.ip);
    throw new AppError("unauthenticated", "Invalid email or password.");
  }
  await clearFailures(db, rule, input.email, meta.ip);
  const { token } = await createSession(db, row.id, meta);
  return {
    token,
    user: {
      id: row.id,
      name: row.name,
      email: row.email,
      role: row.role as Role,
      organization: row.organization,
      avatarUrl: row.avatarUrl,
    },
  };
}

/** Changes the password and ends every other session of the user. */
export async function changePassword(
  db: Db,
  actor: SessionUser,
  input: { currentPassword: string; newPassword: string },
): Promise<void> {
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, actor.id));
  if (!row || !(await verifyPassword(input.currentPassword, row.passwordHash))) {
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
    await appendAudit(tx, {
      actorId: actor.id,
      action: "user.password_changed",
      entityType: "user",
      entityId: actor.id,
    });
  });
}
