import { randomUUID } from "node:crypto";
import { OpenAPIHono } from "@hono/zod-openapi";
import { trace } from "@opentelemetry/api";
import { AVATAR_MAX_BYTES } from "@tranche/domain";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { routePath } from "hono/route";
import { secureHeaders } from "hono/secure-headers";
import { loadSession, refuseCrossOrigin } from "./auth/middleware";
import type { AppEnv, Deps } from "./context";
import { isConnectionLoss, refusedWrite } from "./db/connection-loss";
import { AppError } from "./errors";
import { createReadCache } from "./lib/read-cache";
import { JSON_BODY_LIMIT } from "./lib/validate";
import { openApiDocument } from "./openapi/spec";
import { analyticsRoutes } from "./routes/analytics";
import { apiTokenRoutes } from "./routes/api-tokens";
import { auditRoutes } from "./routes/audit";
import { authRoutes } from "./routes/auth";
import { certificateRoutes, releaseCertificateRoutes } from "./routes/certificates";
import { dashboardRoutes } from "./routes/dashboard";
import { eventRoutes } from "./routes/events";
import { evidenceRoutes, milestoneEvidenceRoutes } from "./routes/evidence";
import { fieldRoutes } from "./routes/field";
import { healthRoutes } from "./routes/health";
import { invitationRoutes } from "./routes/invitations";
import { meRoutes } from "./routes/me";
import { metricsRoutes } from "./routes/metrics";
import { mfaRoutes } from "./routes/mfa";
import { milestoneRoutes } from "./routes/milestones";
import { notificationRoutes } from "./routes/notifications";
import { openApiRoutes } from "./routes/openapi";
import { outboxRoutes } from "./routes/outbox";
import { passkeyRoutes } from "./routes/passkeys";
import { passwordResetRoutes } from "./routes/password-reset";
import { avatarRoutes, profileRoutes } from "./routes/profile";
import { projectRoutes } from "./routes/projects";
import { publicRequestRoutes } from "./routes/public-requests";
import { pushRoutes } from "./routes/push";
import { releaseRoutes } from "./routes/releases";
import { searchRoutes } from "./routes/search";
import { sessionRoutes } from "./routes/sessions";
import { userRoutes } from "./routes/users";
import { reportRoutes, verificationRoutes, verifierQueueRoutes } from "./routes/verification";
import { verifierRoutes } from "./routes/verifiers";
import { webhookEndpointRoutes } from "./routes/webhooks";
import { AVATAR_TOO_LARGE } from "./services/profile/profile";
import { mountWebApp } from "./web-app";

/** How many times a read that meets a lost database connection is run in all. */
const READ_ATTEMPTS = 3;

/** Seconds a client should wait before retrying a request that met a lost database connection. */
const DATABASE_RETRY_AFTER_S = 2;

/** Paths whose bodies are streamed uploads with their own (larger) limit. */
const isUpload = (method: string, pathname: string) => method === "POST" && /\/evidence\/?$/.test(pathname);

export function createApp(deps: Deps) {
  const app = new OpenAPIHono<AppEnv>();
  const https = deps.env.PUBLIC_URL.startsWith("https://");

  app.use("*", async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    c.set("requestId", requestId);
    c.set("deps", deps);
    c.set("user", null);
    c.set("apiToken", null);
    c.header("X-Request-Id", requestId);
    // With tracing on (OTEL_EXPORTER_OTLP_ENDPOINT), the HTTP server span carries the request id and the route;
    // off, there is no active span and this costs nothing.
    const span = trace.getActiveSpan();
    span?.setAttribute("tranche.request_id", requestId);
    const started = performance.now();
    await next();
    // A process that is shutting down closes each connection after its answer, so a load balancer's next request
    // opens a new one (to a process that stays) instead of reusing one that is about to close.
    if (deps.lifecycle?.draining) {
      try {
        c.res.headers.set("Connection", "close");
      } catch {
        // A response with immutable headers: its connection is simply closed when the server stops.
      }
    }
    // The pattern that answered (/api/projects/:id), never the raw URL: a bounded set of labels.
    const route = routePath(c);
    deps.metrics.observeRequest(c.req.method, route, c.res.status, (performance.now() - started) / 1000);
    if (span) {
      span.setAttribute("http.route", route);
      span.updateName(`${c.req.method} ${route}`);
    }
    if (c.req.path.startsWith("/api/")) {
      deps.logger.info(
        {
          reqId: requestId,
          method: c.req.method,
          path: c.req.path,
          status: c.res.status,
          ms: Math.round(performance.now() - started),
          userId: c.get("user")?.id,
          apiTokenId: c.get("apiToken")?.id,
        },
        "request",
      );
    }
  });

  // A read that met a dropped database connection runs again, up to twice: reads have no effects to repeat, and
  // the pool has discarded each dead connection by then (after a server restart every pooled connection is dead, so
  // a read of several queries may meet two). Writes are not repeated: they answer 503 (see onError).
  const readAttempts = new WeakMap<Request, number>();
  app.use("/api/*", async (c, next) => {
    await next();
    const method = c.req.method;
    const attempt = readAttempts.get(c.req.raw) ?? 1;
    if ((method !== "GET" && method !== "HEAD") || !isConnectionLoss(c.error) || attempt >= READ_ATTEMPTS) return;
    deps.logger.warn(
      { reqId: c.get("requestId"), path: c.req.path, attempt },
      "retrying a read after a lost database connection",
    );
    const again = new Request(c.req.raw);
    readAttempts.set(again, attempt + 1);
    c.res = await app.fetch(again, c.env);
  });

  app.use(
    "*",
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
      strictTransportSecurity: https ? "max-age=63072000; includeSubDomains" : false,
      referrerPolicy: "strict-origin-when-cross-origin",
      xFrameOptions: "DENY",
      crossOriginEmbedderPolicy: false,
      // A route's own header wins: evidence downloads send a sandbox CSP of their own.
      overwrite: false,
    }),
  );

  app.use("/api/*", async (c, next) => {
    if (isUpload(c.req.method, c.req.path)) return next();
    // A picture is refused by its own limit, named, before the general one could answer for it.
    const avatar = c.req.method === "PUT" && c.req.path === "/api/me/avatar";
    return bodyLimit({
      maxSize: avatar ? AVATAR_MAX_BYTES : JSON_BODY_LIMIT,
      onError: () => {
        if (avatar) throw new AppError("payload_too_large", AVATAR_TOO_LARGE, { avatar: AVATAR_TOO_LARGE });
        throw new AppError("payload_too_large", "The request body is too large.");
      },
    })(c, next);
  });
  app.use("/api/*", refuseCrossOrigin);
  app.use("/api/*", loadSession);
  app.use("/api/*", async (c, next) => {
    await next();
    if (!c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
  });
  // After the session (its key) and inside Cache-Control (a hit is no-store too).
  app.use("/api/*", createReadCache(deps).middleware);

  const api = new OpenAPIHono<AppEnv>();
  api.route("/health", healthRoutes);
  api.route("/auth", authRoutes);
  api.route("/auth/mfa", mfaRoutes);
  api.route("/auth/sessions", sessionRoutes);
  api.route("/auth/passkeys", passkeyRoutes);
  api.route("/me", meRoutes);
  api.route("/public-requests", publicRequestRoutes);
  api.route("/projects", projectRoutes);
  api.route("/milestones", milestoneRoutes);
  api.route("/milestones", verificationRoutes);
  api.route("/milestones", milestoneEvidenceRoutes);
  api.route("/evidence", evidenceRoutes);
  api.route("/audit", auditRoutes);
  api.route("/verifications", verifierQueueRoutes);
  api.route("/field", fieldRoutes);
  api.route("/reports", reportRoutes);
  api.route("/verifiers", verifierRoutes);
  api.route("/notifications", notificationRoutes);
  api.route("/events", eventRoutes);
  api.route("/users", userRoutes);
  api.route("/dashboard", dashboardRoutes);
  api.route("/analytics", analyticsRoutes);
  api.route("/search", searchRoutes);
  api.route("/webhook-endpoints", webhookEndpointRoutes);
  api.route("/releases", releaseCertificateRoutes);
  api.route("/certificates", certificateRoutes);
  // Built once per public address (the document names its server), from every route mounted below.
  const documents = new Map<string, string>();
  const documentText = (serverUrl: string) => {
    let text = documents.get(serverUrl);
    if (!text) {
      text = JSON.stringify(openApiDocument(app, serverUrl));
      documents.set(serverUrl, text);
    }
    return text;
  };
  api.route("/", openApiRoutes(documentText));
  api.route("/releases", releaseRoutes);
  api.route("/api-tokens", apiTokenRoutes);
  api.route("/auth", passwordResetRoutes);
  api.route("/invitations", invitationRoutes);
  api.route("/me", profileRoutes);
  api.route("/users", avatarRoutes);
  api.route("/outbox", outboxRoutes);
  api.route("/push", pushRoutes);
  app.route("/api", api);
  app.route("/metrics", metricsRoutes);
  app.all("/api/*", () => {
    throw new AppError("not_found", "No such endpoint.");
  });

  app.onError((err, c) => {
    if (isConnectionLoss(err)) {
      // The transaction did not commit (or, if the connection died during COMMIT, committed whole): either
      // way nothing is half-written, and a retry is safe — approvals answer 409 or replay their Idempotency-Key.
      deps.logger.warn(
        { err, reqId: c.get("requestId"), method: c.req.method, path: c.req.path },
        "database connection lost during a request",
      );
      c.header("Retry-After", String(DATABASE_RETRY_AFTER_S));
      return c.json(
        { error: { code: "database_unavailable", message: "The database is briefly unavailable. Please try again." } },
        503,
      );
    }
    const refused = refusedWrite(err);
    if (refused?.kind === "contention") {
      deps.logger.warn({ err, reqId: c.get("requestId") }, "a write was rolled back to end a deadlock");
      const message = "Someone else changed this at the same moment; nothing was saved. Try again.";
      return c.json({ error: { code: "conflict", message } }, 409);
    }
    if (refused) {
      // The application's own checks should have refused this first: loud in the log, a refusal to the caller.
      deps.logger.error(
        { err, reqId: c.get("requestId"), violation: refused.message },
        `the database refused a write (${refused.kind === "money" ? "integrity" : "constraint"})`,
      );
      const message =
        refused.kind === "money"
          ? "This change would break a rule that protects capital; nothing was saved."
          : "This change conflicts with what is already recorded; nothing was saved.";
      return c.json({ error: { code: "conflict", message } }, 409);
    }
    if (err instanceof AppError) {
      for (const [name, value] of Object.entries(err.headers ?? {})) c.header(name, value);
      return c.json(err.toBody(), err.status);
    }
    if (err instanceof HTTPException) {
      const status = err.status;
      const code =
        status === 413
          ? "payload_too_large"
          : status === 401
            ? "unauthenticated"
            : status < 500
              ? "invalid_input"
              : "internal";
      return c.json({ error: { code, message: err.message || "Request failed." } }, status);
    }
    deps.logger.error({ err, reqId: c.get("requestId") }, "unhandled error");
    return c.json({ error: { code: "internal", message: "Something went wrong on our side. Please try again." } }, 500);
  });

  mountWebApp(app, deps.env.PUBLIC_URL);
  return app;
}
