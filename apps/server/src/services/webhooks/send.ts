import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { Target } from "./address";

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const RESPONSE_EXCERPT_BYTES = 1024;

export interface SendResult {
  statusCode: number | null;
  durationMs: number;
  /** The first 1 kB of the response body. */
  response: string;
  error: string | null;
}

/**
 * POSTs a webhook to the checked address (never asking DNS again), never following a redirect, giving up after
 * 10 s. Resolves whatever happens: the caller logs the attempt and decides.
 */
export function sendWebhook(
  target: Target,
  body: string | Buffer,
  headers: Record<string, string>,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Promise<SendResult> {
  const started = performance.now();
  const pinned: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
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
        lookup: pinned,
        agent: false,
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const statusCode = res.statusCode ?? null;
          const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
          const response = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString("utf8");
          const location = res.headers.location;
          finish({
            statusCode,
            response,
            error: ok
              ? null
              : statusCode !== null && statusCode >= 300 && statusCode < 400
                ? `redirect to ${location ?? "(no location)"} not followed`
                : `HTTP ${statusCode}`,
          });
          res.destroy();
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
    req.on("error", (error) => finish({ statusCode: null, response: "", error: error.message }));
    req.end(body);
  });
}
