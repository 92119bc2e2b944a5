// OpenTelemetry traces, on only when OTEL_EXPORTER_OTLP_ENDPOINT is set: an HTTP server span per request (named
// by its route, carrying its request id; see app.ts) and a span per PostgreSQL query made while answering it, sent
// over OTLP/HTTP. main.ts imports this module, and the server after it, only when the variable is set: off, none
// of it is loaded. It must start before `node:http` and `pg` are first imported, so that they can be patched.
import { register } from "node:module";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { NodeSDK } from "@opentelemetry/sdk-node";
import type { Env } from "../env";

export interface Tracing {
  /** Sends the spans still buffered, then stops. */
  shutdown(): Promise<void>;
}

export function startTracing(env: Pick<Env, "OTEL_EXPORTER_OTLP_ENDPOINT" | "OTEL_SERVICE_NAME">): Tracing {
  // `pg` is CommonJS, patched when it is first required; `node:http` is imported as an ES module, which only an
  // import hook can patch. The hook is limited to it, so no other module's loading changes.
  register("@opentelemetry/instrumentation/hook.mjs", import.meta.url, { data: { include: ["node:http"] } });
  const endpoint = (env.OTEL_EXPORTER_OTLP_ENDPOINT ?? "").replace(/\/+$/, "");
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME,
    traceExporter: new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }),
    // Traces only: metrics are Prometheus's (/metrics), logs are the JSON lines on standard output. Without these
    // the SDK would also export both to the endpoint.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      // Incoming requests only: outgoing ones (webhooks, SMTP) are not what an operator follows here.
      new HttpInstrumentation({ disableOutgoingRequestInstrumentation: true }),
      // Queries made while answering a request; the workers' polling would otherwise fill the traces.
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
