import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { Target } from "./address";

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const RESPONSE_EXCERPT_BYTES = 1024;

/** How long an idle connection to a receiver is kept for the next request: under the usual 5 s of servers. */
const IDLE_CONNECTION_MS = 4_000;
/** Receivers with a pool of their own; past that, the least recently used pool is closed. */
const POOLED_TARGETS = 64;

const agents = new Map<string, http.Agent>();

/**
 * The connection pool for one checked target, keyed by its URL's origin and the address it was checked at: a
 * connection is reused only for the same origin at the same address, and every new one goes to that address
 * (DNS is not asked again). A custodian receiving instructions all day is not sent a new connection, and a new
 * TLS handshake, for each.
 */
function agentFor(target: Target): http.Agent {
  const key = `${target.url.origin} ${target.address}`;
  const found = agents.get(key);
  if (found) {
    agents.delete(key);
    agents.set(key, found);
    return found;
  }
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const options = { keepAlive: true, timeout: IDLE_CONNECTION_MS, lookup };
  const agent = target.url.protocol === "https:" ? new https.Agent(options) : new http.Agent(options);
  agents.set(key, agent);
  if (agents.size > POOLED_TARGETS) {
    const [oldest, pool] = agents.entries().next().value as [string, http.Agent];
    agents.delete(oldest);
    pool.destroy();
  }
  return agent;
}

export interface SendResult {
  statusCode: number | null;
  durationMs: number;
  /** The first 1 kB of the response body. */
  response: string;
  error: string | null;
}

/**
 * POSTs a webhook to the checked address (never asking DNS again), never following a redirect, giving up after
 * 10 s. Resolves whatever happens: the caller logs the attempt and decides. A kept connection the receiver closed
 * just as it was reused is retried once on a new one, as Node's documentation advises.
 */
export async function sendWebhook(
  target: Target,
  body: string | Buffer,
  headers: Record<string, string>,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Promise<SendResult> {
  const started = performance.now();
  return (
    (await post(target, body, headers, timeoutMs, started, true)) ??
    ((await post(target, body, headers, timeoutMs, started, false)) as SendResult)
  );
}

/** One attempt; null when a kept connection turned out closed and `mayRetry` (the caller tries a new one). */
function post(
  target: Target,
  body: string | Buffer,
  headers: Record<string, string>,
  timeoutMs: number,
  started: number,
  mayRetry: boolean,
): Promise<SendResult | null> {
  const client = target.url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: Math.round(performance.now() - started) });
    };
    const req = client.request(
      target.url,
      {
        method: "POST",
        agent: agentFor(target),
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const statusCode = res.statusCode ?? null;
          const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
          // Kept as the attempt's log: PostgreSQL text cannot hold U+0000, so a receiver answering with one would
          // otherwise lose the attempt (and a 2xx with it, to be sent again until the endpoint is disabled).
          const response = Buffer.concat(chunks)
            .subarray(0, RESPONSE_EXCERPT_BYTES)
            .toString("utf8")
            .replaceAll("\u0000", "\ufffd");
          const location = res.headers.location;
          const whole = res.complete;
          finish({
            statusCode,
            response,
            error: ok
              ? null
              : statusCode !== null && statusCode >= 300 && statusCode < 400
                ? `redirect to ${location ?? "(no location)"} not followed`
                : `HTTP ${statusCode}`,
          });
          // A response read to its end leaves the connection to the pool; one cut short closes it.
          if (!whole) res.destroy();
        };
        res.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_EXCERPT_BYTES) done();
        });
        res.on("end", done);
        res.on("error", done);
      },
    );
    const timer = setTimeout(() => {
      finish({ statusCode: null, response: "", error: `no answer within ${timeoutMs / 1000} s` });
      req.destroy();
    }, timeoutMs);
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (!settled && mayRetry && req.reusedSocket && error.code === "ECONNRESET") {
        settled = true;
        clearTimeout(timer);
        resolve(null);
      } else finish({ statusCode: null, response: "", error: error.message });
    });
    req.end(body);
  });
}
