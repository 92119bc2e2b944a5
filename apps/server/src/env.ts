import { z } from "zod";

const bool = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  /** PostgreSQL server; when unset, the embedded PGlite database under DATA_DIR is used. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: "must be a postgres:// or postgresql:// URL" })
    .optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  PUBLIC_URL: z.url().default("http://localhost:3000"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).default(720),
  SESSION_MAX_HOURS: z.coerce.number().int().min(1).default(168),
  MAX_UPLOAD_MB: z.coerce.number().positive().default(25),
  /** auto: seed demo data on first start with the embedded database. */
  DEMO_DATA: z.enum(["auto", "true", "false"]).default("auto"),
  TRUST_PROXY: bool.default(false),
  SIGNUP_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
  SIGNIN_LIMIT_PER_IP: z.coerce.number().int().min(1).default(150),
  PUBLIC_FORM_LIMIT_PER_IP: z.coerce.number().int().min(1).default(10),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
});

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
