// A real HTTP receiver on 127.0.0.1 for webhook tests: records every request; the test decides each answer.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

export type Answer = (req: Received, res: http.ServerResponse) => void | Promise<void>;

export interface Receiver {
  url: string;
  received: Received[];
  answer: Answer;
  close(): Promise<void>;
}

export async function startReceiver(answer: Answer = (_, res) => void res.end("ok")): Promise<Receiver> {
  const receiver: Receiver = {
    url: "",
    received: [],
    answer,
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]),
      );
      const got = { path: req.url ?? "/", headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      receiver.received.push(got);
      void receiver.answer(got, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
