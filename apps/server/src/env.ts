import { DEFAULT_SITE_RADIUS_M, RECONNECT_DELAYS_MS, type Role, SSE_HEARTBEAT_MS } from "@tranche/domain";
import { z } from "zod";

const delays = z
  .string()
  .regex(/^\d+(,\d+)*$/, { error: "must be a comma-separated list of milliseconds, e.g. 1000,2000,5000,10000" })
  .transform((v) => v.split(",").map(Number));

const mfaRoles = z
  .string()
  .regex(/^(none|(investor|project_owner|verifier|admin)(,(investor|project_owner|verifier|admin))*)$/, {
    error: "must be a comma-separated list of roles (investor, project_owner, verifier, admin), or none",
  })
  .transform((v) => (v === "none" ? [] : (v.split(",") as Role[])));

const bool = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    /** PostgreSQL server; when unset, the embedded PGlite database under DATA_DIR is used. */
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, { error: "must be a postgres:// or postgresql:// URL" })
      .optional(),
    /**
     * Keep statements prepared on each PostgreSQL connection, so each is planned once rather than on every call;
     * false behind a pooler that cannot carry prepared statements (PgBouncer before 1.21 in transaction mode).
     */
    DATABASE_PREPARED_STATEMENTS: bool.default(true),
    DATA_DIR: z.string().min(1).default("./data"),
    /** Unset: http://localhost:PORT, so the links the server writes (certificates, emails) reach this server. */
    PUBLIC_URL: z.url().optional(),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).default(720),
    SESSION_MAX_HOURS: z.coerce.number().int().min(1).default(168),
    MAX_UPLOAD_MB: z.coerce.number().positive().default(25),
    /** One upload request (several files) is refused or cut off beyond this. */
    MAX_UPLOAD_REQUEST_MB: z.coerce.number().positive().default(100),
    /** A capture tagged farther than this (metres) from its project's site is flagged `far_from_site`. */
    EVIDENCE_SITE_RADIUS_M: z.coerce.number().positive().default(DEFAULT_SITE_RADIUS_M),
    /** auto: seed demo data on first start with the embedded database. */
    DEMO_DATA: z.enum(["auto", "true", "false"]).default("auto"),
    TRUST_PROXY: bool.default(false),
    SIGNUP_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
    SIGNIN_LIMIT_PER_IP: z.coerce.number().int().min(1).default(150),
    /** Wrong passwords one IP may try against one account per 15 minutes… */
    SIGNIN_FAILURES_PER_ACCOUNT_IP: z.coerce.number().int().min(1).default(10),
    /** …and against one account from all IPs together (much higher: a stranger cannot lock a person out). */
    SIGNIN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(100),
    /** Roles that must pass a second factor (passkey or authenticator code) within 12 hours before acting on money or access. */
    MFA_REQUIRED_ROLES: mfaRoles.default(["verifier", "admin"]),
    PUBLIC_FORM_LIMIT_PER_IP: z.coerce.number().int().min(1).default(10),
    /** Requests one API token may make per minute. */
    API_TOKEN_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
    /** A verification open longer than this is overdue: its verifier and the admins are notified once. */
    VERIFICATION_SLA_DAYS: z.coerce.number().positive().default(3),
    /** How often each process looks for newly overdue verifications. */
    VERIFICATION_SLA_SWEEP_MS: z.coerce.number().int().min(1000).default(60_000),
    /**
     * Serve dashboards, list pages, counts and searches again from memory while the database says nothing they read
     * has changed since (lib/read-cache.ts); false computes every answer afresh.
     */
    READ_CACHE: bool.default(true),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
    /**
     * On SIGTERM, how long /api/health/ready answers 503 while everything else is still served, so a load balancer
     * takes the process out of rotation before it stops accepting connections.
     */
    SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).default(3_000),
    /** Where evidence files are kept: `local` (DATA_DIR/evidence) or `s3` (an S3-compatible bucket). */
    EVIDENCE_STORE: z.enum(["local", "s3"]).default("local"),
    /** The S3 endpoint (MinIO, Ceph, R2…); unset: AWS's own for S3_REGION. */
    S3_ENDPOINT: z.url().optional(),
    S3_BUCKET: z.string().min(3).optional(),
    S3_REGION: z.string().min(1).default("us-east-1"),
    /** With S3_SECRET_ACCESS_KEY; unset: the AWS SDK's usual credential chain (environment, profile, instance role). */
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** `bucket` in the path instead of the host name (most self-hosted stores need it). */
    S3_FORCE_PATH_STYLE: bool.default(false),
    /** Comment lines on open event streams, so proxies keep them open and dead clients are noticed. */
    SSE_HEARTBEAT_MS: z.coerce.number().int().min(100).default(SSE_HEARTBEAT_MS),
    /** Delays between attempts to re-establish a lost LISTEN connection (PostgreSQL); the last repeats. */
    REALTIME_RECONNECT_DELAYS_MS: delays.default([...RECONNECT_DELAYS_MS]),
    /** Ed25519 private key (PKCS#8 PEM, or base64 DER) that signs audit checkpoints. */
    AUDIT_SIGNING_KEY: z.string().optional(),
    /** A file holding that key; without either, DATA_DIR/audit-signing-key.pem (generated on first start). */
    AUDIT_SIGNING_KEY_FILE: z.string().optional(),
    /** The log of signed checkpoints (JSON lines); without it, beside the key file (or in DATA_DIR). */
    AUDIT_CHECKPOINT_LOG: z.string().optional(),
    /** A checkpoint is signed after this many new audit events… */
    AUDIT_CHECKPOINT_EVERY: z.coerce.number().int().min(1).default(100),
    /** …or this long after the last one, whichever comes first (when the chain moved). */
    AUDIT_CHECKPOINT_INTERVAL_MS: z.coerce.number().int().min(1000).default(600_000),
    /** 32 bytes (base64) that encrypt webhook signing secrets at rest; without it, DATA_DIR/webhook-secrets.key. */
    WEBHOOK_SECRETS_KEY: z
      .string()
      .refine((v) => Buffer.from(v, "base64").length === 32, {
        error: "must be 32 bytes in base64 (openssl rand -base64 32)",
      })
      .optional(),
    /**
     * How long a process reserves an outbox message it is sending (a webhook waits up to 10 s for its answer);
     * a message whose process died is sent again by another once this has passed.
     */
    OUTBOX_LEASE_MS: z.coerce.number().int().min(15_000).default(60_000),
    /** Development and tests only: webhooks may target private and loopback addresses, over plain http. */
    WEBHOOK_ALLOW_PRIVATE: bool.default(false),
    /** Outgoing email (smtp:// or smtps://); without it messages are stored and shown to admins in the Outbox. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, { error: "must be an smtp:// or smtps:// URL" })
      .optional(),
    EMAIL_FROM: z.string().min(3).default("Tranche <no-reply@tranche.local>"),
    /** Self sign-up (project owners); invitations work either way. */
    ALLOW_SIGNUP: bool.default(true),
    /** "Forgot password?" requests per IP per 15 minutes; the address's own allowance is kept per source (ADR 014). */
    PASSWORD_RESET_LIMIT_PER_IP: z.coerce.number().int().min(1).default(10),
    /** Hour of the day (UTC) when daily digests go out. */
    DIGEST_HOUR_UTC: z.coerce.number().int().min(0).max(23).default(7),
    /** A port of its own for GET /metrics (Prometheus), on HOST; unset: no such port. */
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    /** Serves GET /metrics on the main port too, to requests with `Authorization: Bearer <this>`. */
    METRICS_TOKEN: z.string().min(16, { error: "must be at least 16 characters" }).optional(),
    /** An OTLP/HTTP collector (http://host:4318): turns on OpenTelemetry traces, sent to <this>/v1/traces. */
    OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
    /** The service name traces carry. */
    OTEL_SERVICE_NAME: z.string().min(1).default("tranche"),
    /**
     * The VAPID key pair that signs Web Push messages (base64url: the 65-byte uncompressed P-256 public key and the
     * 32-byte private key, as `npx web-push generate-vapid-keys` prints them). Without them, a pair is generated on
     * first start and kept in the database (the private half sealed with the webhook secrets key).
     */
    VAPID_PUBLIC_KEY: z
      .string()
      .refine((v) => /^[A-Za-z0-9_-]+$/.test(v) && Buffer.from(v, "base64url").length === 65, {
        error: "must be a 65-byte P-256 public key in base64url (npx web-push generate-vapid-keys)",
      })
      .optional(),
    VAPID_PRIVATE_KEY: z
      .string()
      .refine((v) => /^[A-Za-z0-9_-]+$/.test(v) && Buffer.from(v, "base64url").length === 32, {
        error: "must be a 32-byte P-256 private key in base64url (npx web-push generate-vapid-keys)",
      })
      .optional(),
    /** Who push services may contact about our messages: mailto: or https:. Default: PUBLIC_URL when https, else EMAIL_FROM's address. */
    VAPID_SUBJECT: z
      .string()
      .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, { error: "must be a mailto: address or an https:// URL" })
      .optional(),
    /** Development and tests only: push subscriptions may name private and loopback endpoints, over plain http. */
    PUSH_ALLOW_PRIVATE: bool.default(false),
  })
  .refine((env) => (env.VAPID_PUBLIC_KEY === undefined) === (env.VAPID_PRIVATE_KEY === undefined), {
    path: ["VAPID_PRIVATE_KEY"],
    error: "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together, or neither",
  })
  .refine((env) => env.EVIDENCE_STORE !== "s3" || env.S3_BUCKET !== undefined, {
    path: ["S3_BUCKET"],
    error: "is required when EVIDENCE_STORE=s3",
  })
  .refine((env) => (env.S3_ACCESS_KEY_ID === undefined) === (env.S3_SECRET_ACCESS_KEY === undefined), {
    path: ["S3_SECRET_ACCESS_KEY"],
    error: "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together, or neither",
  })
  .refine((env) => env.MAX_UPLOAD_REQUEST_MB >= env.MAX_UPLOAD_MB, {
    path: ["MAX_UPLOAD_REQUEST_MB"],
    error: "must be at least MAX_UPLOAD_MB (one request carries at least one file)",
  })
  .transform((env) => ({ ...env, PUBLIC_URL: env.PUBLIC_URL ?? `http://localhost:${env.PORT}` }));

export type Env = z.infer<typeof envSchema>;

/** Parses the environment once; a bad value names the variable and stops the process. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    console.error(`Invalid environment configuration:\n${lines.join("\n")}`);
    process.exit(1);
  }
  return result.data;
}

/** Test and CLI defaults: quiet logs, in-memory unless told otherwise. */
export function testEnv(overrides: Partial<Env> = {}): Env {
  return { ...envSchema.parse({ NODE_ENV: "test", LOG_LEVEL: "silent", DEMO_DATA: "false" }), ...overrides };
}
