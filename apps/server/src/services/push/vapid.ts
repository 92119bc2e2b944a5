// The VAPID key pair (RFC 8292) that signs every push message. Push services tie a subscription to the public key
// the browser subscribed with, so every process must sign with the same pair: it lives in the database (made once,
// by the first process to start), not in each process's DATA_DIR, unless VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY are set.
import { eq } from "drizzle-orm";
import webPush from "web-push";
import type { Deps } from "../../context";
import { vapidKeys as vapidKeysTable } from "../../db/schema";
import type { Env } from "../../env";

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  /** Who the push service may contact about our messages (mailto: or https:). */
  subject: string;
}

/** VAPID_SUBJECT, else PUBLIC_URL when it is https, else the address messages are sent from. */
export function vapidSubject(env: Env): string {
  if (env.VAPID_SUBJECT) return env.VAPID_SUBJECT;
  if (env.PUBLIC_URL.startsWith("https://")) return new URL(env.PUBLIC_URL).origin;
  const address = env.EMAIL_FROM.match(/<([^>]+)>/)?.[1] ?? env.EMAIL_FROM;
  return `mailto:${address.trim()}`;
}

async function loadOrCreate(deps: Pick<Deps, "db" | "env" | "webhookSecrets" | "logger">): Promise<VapidKeys> {
  const { db, env, webhookSecrets } = deps;
  const subject = vapidSubject(env);
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY) {
    return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject };
  }
  const read = async () => (await db.select().from(vapidKeysTable).where(eq(vapidKeysTable.id, 1)))[0];
  let row = await read();
  if (!row) {
    const fresh = webPush.generateVAPIDKeys();
    // Processes starting together each try; the first insert wins and everyone reads it back.
    await db
      .insert(vapidKeysTable)
      .values({ id: 1, publicKey: fresh.publicKey, privateKeySealed: webhookSecrets.seal(fresh.privateKey) })
      .onConflictDoNothing();
    row = await read();
    if (row?.publicKey === fresh.publicKey) deps.logger.info("generated the VAPID key pair for Web Push");
  }
  if (!row) throw new Error("the VAPID key pair could not be stored");
  let privateKey: string;
  try {
    privateKey = webhookSecrets.open(row.privateKeySealed);
  } catch {
    throw new Error(
      "the VAPID private key in the database cannot be opened with this process's webhook secrets key: give every process the same WEBHOOK_SECRETS_KEY, or set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY",
    );
  }
  return { publicKey: row.publicKey, privateKey, subject };
}

const loaded = new WeakMap<object, Promise<VapidKeys>>();

/** This process's VAPID keys, loaded (or made) once. */
export function vapidKeys(deps: Pick<Deps, "db" | "env" | "webhookSecrets" | "logger">): Promise<VapidKeys> {
  let keys = loaded.get(deps.db);
  if (!keys) {
    keys = loadOrCreate(deps);
    loaded.set(deps.db, keys);
    keys.catch(() => loaded.delete(deps.db));
  }
  return keys;
}
