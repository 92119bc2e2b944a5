import type { ApiScope, Role } from "@tranche/domain";
import type { Database, Db } from "./db/client";
import type { Env } from "./env";
import type { Logger } from "./lib/logger";
import type { Metrics } from "./lib/metrics";
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
  emailVerifiedAt: Date | null;
  sessionId: string;
  /** When this session last passed the second factor (null: never). */
  mfaVerifiedAt: Date | null;
}

/** Everything a request handler may reach; built once per process (or per test file). */
export interface Deps {
  env: Env;
  database: Database;
  db: Db;
  logger: Logger;
  /** Prometheus figures of this process (GET /metrics). */
  metrics: Metrics;
  realtime: Realtime;
  /** Signs audit checkpoints; kept outside the database. */
  auditKey: AuditKey;
  /** Encrypts webhook signing secrets at rest; kept outside the database. */
  webhookSecrets: SecretBox;
  /** Whether this process is shutting down (set on SIGTERM); absent in tests that never shut down. */
  lifecycle?: Lifecycle;
}

/** A process that is draining still serves every request, but tells load balancers to stop sending more. */
export interface Lifecycle {
  draining: boolean;
}

/** A machine client authenticated by an API token (Authorization: Bearer). */
export interface TokenCaller {
  id: string;
  name: string;
  scopes: ApiScope[];
}

/** Who is acting on a route that both people and API tokens may call. */
export type Caller = { kind: "user"; user: SessionUser } | { kind: "token"; token: TokenCaller };

export type AppEnv = {
  Variables: {
    deps: Deps;
    user: SessionUser | null;
    /** Set instead of `user` when the request carries an API token. */
    apiToken: TokenCaller | null;
    requestId: string;
  };
};

/** What a service verb that people and API tokens share receives. */
export interface CallerContext {
  db: Db;
  env: Env;
  caller: Caller;
}

/** What a service verb receives: who is acting, and where. */
export interface ServiceContext {
  db: Db;
  env: Env;
  actor: SessionUser;
}
