import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface CustodianSimOptions {
  port: number;
  host?: string;
  /** The endpoint's `whsec_…` signing secret. */
  secret: string;
  /** A Tranche API token with releases:write, for --auto-settle. */
  token?: string;
  autoSettle?: boolean;
  /** Tranche's base URL, e.g. http://localhost:3000. */
  api?: string;
  print?: (line: string) => void;
}

export interface CustodianSim {
  url: string;
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;

interface TrancheEvent {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

/** One line a person can read: what happened, to what, for how much. */
function summary(event: TrancheEvent): string {
  const d = event.data as {
    releaseId?: string;
    amount?: string;
    currency?: string;
    project?: { name?: string };
    milestone?: { name?: string };
    message?: string;
  };
  const parts = [
    d.project?.name && `project "${d.project.name}"`,
    d.milestone?.name && `milestone "${d.milestone.name}"`,
    d.amount && `${d.amount} ${d.currency ?? ""}`.trim(),
    d.releaseId && `release ${d.releaseId}`,
    d.message,
  ].filter(Boolean);
  return parts.join(", ");
}

/**
 * A reference receiver, as a custodian would write one: verifies each webhook's Standard Webhooks signature,
 * ignores a webhook-id it has already handled, prints the event, and with autoSettle reports each instructed
 * release as settled through the API.
 */
export async function startCustodianSim(options: CustodianSimOptions): Promise<CustodianSim> {
  const print = options.print ?? ((line: string) => console.log(line));
  const webhook = new Webhook(options.secret);
  const api = (options.api ?? "http://localhost:3000").replace(/\/+$/, "");
  const handled = new Set<string>();

  async function settle(event: TrancheEvent) {
    const releaseId = event.data.releaseId;
    const instructed = typeof event.data.instructionId === "string" ? event.data.instructionId : undefined;
    const instructionId = instructed ?? event.id;
    if (typeof releaseId !== "string") {
      print(`  ! release.instructed without a releaseId: not settled`);
      return;
    }
    const reference = `SIM-${instructionId.replace(/-/g, "").slice(0, 12).toUpperCase()}`;
    try {
      const res = await fetch(`${api}/api/releases/${encodeURIComponent(releaseId)}/settle`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${options.token}` },
        // Naming the instruction answered: a late settlement of one since re-instructed is refused, not misfiled.
        body: JSON.stringify({ instructionId: instructed, reference }),
        redirect: "manual",
      });
      const text = await res.text();
      print(
        res.ok
          ? `  → settled release ${releaseId} with reference ${reference}`
          : `  ! settling release ${releaseId} failed: HTTP ${res.status} ${text.slice(0, 300)}`,
      );
    } catch (error) {
      print(`  ! settling release ${releaseId} failed: ${(error as Error).message}`);
    }
  }

  const server = http.createServer((req, res) => {
    if (req.method !== "POST") {
      res.writeHead(405, { allow: "POST" }).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(chunk);
    });
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]),
      );
      let event: TrancheEvent;
      try {
        event = webhook.verify(body, headers) as TrancheEvent;
      } catch (error) {
        print(`✗ rejected ${headers["webhook-id"] || "(no webhook-id)"}: ${(error as Error).message}`);
        res.writeHead(401, { "content-type": "application/json" }).end('{"error":"invalid signature"}');
        return;
      }
      const webhookId = headers["webhook-id"];
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      if (handled.has(webhookId)) {
        print(`= ${event.type} ${webhookId} again (already handled)`);
        return;
      }
      handled.add(webhookId);
      print(`✓ ${event.type} ${webhookId} ${summary(event)}`.trimEnd());
      print(`  ${JSON.stringify(event.data)}`);
      if (options.autoSettle && event.type === "release.instructed") void settle(event);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port, options.host ?? "127.0.0.1", resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.address.includes(":") ? `[${address.address}]` : address.address}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
