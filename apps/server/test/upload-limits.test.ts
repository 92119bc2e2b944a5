// Upload limits over a real socket: a declared Content-Length over the limit is refused before the body is
// read, and a chunked body is cut off as soon as it passes the limit; either way the connection is closed
// and no partial file or evidence row is left.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { serve } from "@hono/node-server";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evidence } from "../src/db/schema";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

const FILE_MB = 1;
const REQUEST_MB = 2;
const MB = 1024 * 1024;
let dataDir: string;
let t: TestApp;
let owner: TestUser;
let server: ReturnType<typeof serve>;
let port: number;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "tranche-upload-limits-"));
  t = await createTestApp({ DATA_DIR: dataDir, MAX_UPLOAD_MB: FILE_MB, MAX_UPLOAD_REQUEST_MB: REQUEST_MB });
  owner = await t.user("project_owner");
  server = await new Promise((resolve) => {
    const s = serve({ fetch: t.app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const partials = () => {
  try {
    return (readdirSync(path.join(dataDir, "evidence", ".tmp"), { recursive: true }) as string[]).filter((f) =>
      f.endsWith(".part"),
    );
  } catch {
    return [];
  }
};

async function milestone() {
  const project = await makeProject(t, { owner });
  return makeMilestone(t, project);
}

const BOUNDARY = "----tranche-limit-test";
const partHead = (name: string) =>
  `--${BOUNDARY}\r\ncontent-disposition: form-data; name="files"; filename="${name}"\r\ncontent-type: application/octet-stream\r\n\r\n`;

interface Exchange {
  socket: Socket;
  /** Everything the server sent, once it closed the connection. */
  closed: Promise<string>;
  /** Resolves when the first bytes of the answer arrive. */
  answered: Promise<void>;
}

function open(milestoneId: string, headers: Record<string, string>): Exchange {
  const socket = connect(port, "127.0.0.1");
  socket.setNoDelay(true);
  let text = "";
  let onAnswer: () => void = () => {};
  const answered = new Promise<void>((resolve) => {
    onAnswer = resolve;
  });
  socket.on("data", (chunk) => {
    text += chunk;
    onAnswer();
  });
  const closed = new Promise<string>((resolve) => {
    socket.on("close", () => resolve(text));
    socket.on("error", () => {});
  });
  const lines = [
    `POST /api/milestones/${milestoneId}/evidence HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    `Cookie: ${owner.cookie}`,
    `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.write(`${lines.join("\r\n")}\r\n\r\n`);
  return { socket, closed, answered };
}

/** Writes up to `total` bytes in 64 kB steps until the server answers; returns how many were written. */
async function pump(exchange: Exchange, total: number, chunked: boolean): Promise<number> {
  let sent = 0;
  let answered = false;
  void exchange.answered.then(() => {
    answered = true;
  });
  const block = Buffer.alloc(64 * 1024, 0x61);
  while (sent < total && !answered && !exchange.socket.destroyed) {
    const piece = block.subarray(0, Math.min(block.length, total - sent));
    const framed = chunked
      ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")])
      : piece;
    const flushed = exchange.socket.write(framed);
    sent += piece.length;
    if (!flushed)
      await Promise.race([new Promise((r) => exchange.socket.once("drain", r)), exchange.answered, exchange.closed]);
    await new Promise((r) => setImmediate(r));
  }
  return sent;
}

describe("upload limits on a real connection", () => {
  it("refuses a declared Content-Length over the limit with 413 before reading the body, and closes", async () => {
    const m = await milestone();
    const exchange = open(m.id, { "Content-Length": String(50 * MB) });
    // Not one byte of the body is sent: the answer must come anyway.
    const text = await exchange.closed;
    expect(text).toMatch(/^HTTP\/1\.1 413/);
    expect(text).toContain(`at most ${REQUEST_MB} MB`);
    expect(partials()).toEqual([]);
    expect(await t.deps.db.select().from(evidence).where(eq(evidence.milestoneId, m.id))).toEqual([]);
  });

  it("cuts a chunked upload off as soon as one file passes the per-file limit", async () => {
    const m = await milestone();
    const exchange = open(m.id, { "Transfer-Encoding": "chunked" });
    exchange.socket.write(`${Buffer.byteLength(partHead("big.bin")).toString(16)}\r\n${partHead("big.bin")}\r\n`);
    const sent = await pump(exchange, 40 * MB, true);
    const text = await exchange.closed;
    expect(text).toMatch(/^HTTP\/1\.1 413/);
    // JSON escapes the quotes around the file name.
    expect(text).toContain(`\\"big.bin\\" is larger than the ${FILE_MB} MB limit per file.`);
    // Stopped near the limit, not after the 40 MB the client meant to send (socket buffers hold a few MB).
    expect(sent).toBeLessThan(FILE_MB * MB + 8 * MB);
    expect(partials()).toEqual([]);
    expect(await t.deps.db.select().from(evidence).where(eq(evidence.milestoneId, m.id))).toEqual([]);
  });

  it("cuts a chunked upload off as soon as the whole body passes the request limit", async () => {
    const m = await milestone();
    const exchange = open(m.id, { "Transfer-Encoding": "chunked" });
    // Many files, each under the per-file limit, together over the request limit.
    const file = Buffer.alloc(Math.floor(0.9 * MB), 0x62);
    let sent = 0;
    let answered = false;
    void exchange.answered.then(() => {
      answered = true;
    });
    for (let i = 0; i < 40 && !answered && !exchange.socket.destroyed; i++) {
      const part = Buffer.concat([Buffer.from(partHead(`part-${i}.bin`)), file, Buffer.from("\r\n")]);
      exchange.socket.write(`${part.length.toString(16)}\r\n`);
      const flushed = exchange.socket.write(Buffer.concat([part, Buffer.from("\r\n")]));
      sent += part.length;
      if (!flushed) {
        await Promise.race([new Promise((r) => exchange.socket.once("drain", r)), exchange.answered, exchange.closed]);
      }
    }
    const text = await exchange.closed;
    expect(text).toMatch(/^HTTP\/1\.1 413/);
    expect(text).toContain(`at most ${REQUEST_MB} MB`);
    expect(sent).toBeLessThan(REQUEST_MB * MB + 8 * MB);
    expect(partials()).toEqual([]);
    expect(await t.deps.db.select().from(evidence).where(eq(evidence.milestoneId, m.id))).toEqual([]);
  });

  it("still accepts a file under the limit on the same server", async () => {
    const m = await milestone();
    const data = new FormData();
    data.append("files", new Blob([Buffer.alloc(200_000, 1)]), "fine.bin");
    const res = await fetch(`http://127.0.0.1:${port}/api/milestones/${m.id}/evidence`, {
      method: "POST",
      headers: { cookie: owner.cookie },
      body: data,
    });
    expect(res.status).toBe(201);
    expect(partials()).toEqual([]);
  });
});
