// Webhook and push requests keep their connection to a receiver: one pool per origin and checked address, a
// response read to its end returns the connection to it, and a kept connection the receiver closed as it was reused
// is retried once on a new one.
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { sendWebhook } from "../src/services/webhooks/send";

/** A raw HTTP/1.1 receiver: `answer` decides, for the n-th request on a connection, to reply or to hang up. */
async function rawReceiver(answer: (requestOnConnection: number) => "ok" | "hang up" | "big") {
  const connections: net.Socket[] = [];
  const server = net.createServer((socket) => {
    connections.push(socket);
    let requests = 0;
    let buffered = "";
    socket.on("data", (chunk) => {
      buffered += chunk.toString("latin1");
      // One small request at a time: headers, then a body of content-length bytes.
      for (;;) {
        const end = buffered.indexOf("\r\n\r\n");
        if (end < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.slice(end + 4 + length);
        requests += 1;
        const what = answer(requests);
        if (what === "hang up") {
          socket.destroy();
          return;
        }
        const body = what === "big" ? "x".repeat(4 * 1024 * 1024) : "ok";
        socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\nconnection: keep-alive\r\n\r\n${body}`);
      }
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    connections,
    target: (path = "/hook") => ({
      url: new URL(`http://127.0.0.1:${port}${path}`),
      address: "127.0.0.1",
      family: 4 as const,
    }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of connections) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const headers = { "content-type": "application/json" };
let closeReceiver: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeReceiver?.();
});

describe("webhook connections", () => {
  it("sends one receiver's requests over one kept connection", async () => {
    const receiver = await rawReceiver(() => "ok");
    closeReceiver = receiver.close;
    for (let i = 0; i < 5; i++) {
      expect(await sendWebhook(receiver.target(), `{"n":${i}}`, headers)).toMatchObject({
        statusCode: 200,
        error: null,
      });
    }
    expect(receiver.connections).toHaveLength(1);
  });

  it("retries once on a new connection when the kept one is closed as it is reused", async () => {
    // The first request on each connection is answered; a second on the same connection finds it closed.
    const receiver = await rawReceiver((n) => (n === 1 ? "ok" : "hang up"));
    closeReceiver = receiver.close;
    const target = receiver.target("/stale");
    expect(await sendWebhook(target, "{}", headers)).toMatchObject({ statusCode: 200, error: null });
    expect(await sendWebhook(target, "{}", headers)).toMatchObject({ statusCode: 200, error: null, response: "ok" });
    expect(receiver.connections).toHaveLength(2);
  });

  it("fails, without a retry, when a new connection is closed before an answer", async () => {
    const receiver = await rawReceiver(() => "hang up");
    closeReceiver = receiver.close;
    const result = await sendWebhook(receiver.target("/down"), "{}", headers);
    expect(result).toMatchObject({ statusCode: null });
    expect(result.error).toMatch(/socket hang up|ECONNRESET/);
    expect(receiver.connections).toHaveLength(1);
  });

  it("keeps the first kilobyte of a long answer and closes that connection instead of reading the rest", async () => {
    const receiver = await rawReceiver(() => "big");
    closeReceiver = receiver.close;
    const target = receiver.target("/big");
    const first = await sendWebhook(target, "{}", headers);
    expect(first).toMatchObject({ statusCode: 200, error: null });
    expect(first.response).toBe("x".repeat(1024));
    expect(await sendWebhook(target, "{}", headers)).toMatchObject({ statusCode: 200, error: null });
    expect(receiver.connections).toHaveLength(2);
  });
});
