import type { Role } from "@tranche/domain";
import type { Database, Db } from "./db/client";
import type { Env } from "./env";
import type { Logger } from "./lib/logger";
import type { Realtime } from "./realtime/hub";
import type { AuditKey } from "./services/audit/signing-key";
import type { SecretBox } from "./services/webhooks/secrets";

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  role: Role;
  organization: string | null;
  avatarUrl: string | null;
  sessionId: string;
}

/** Everything a request handler may reach; built once per process (or per test file). */
export interface Deps {
  env: Env;
  database: Database;
  db: Db;
  logger: Logger;
  realtime: Realtime;
  /** Signs audit checkpoints; kept outside the database. */
  auditKey: AuditKey;
  /** Encrypts webhook signing secrets at rest; kept outside the database. */
  webhookSecrets: SecretBox;
}

export type AppEnv = {
  Variables: {
    deps: Deps;
    user: SessionUser | null;
    requestId: string;
  };
};

/** What a service verb receives: who is acting, and where. */
export interface ServiceContext {
  db: Db;
  env: Env;
  actor: SessionUser;
}
