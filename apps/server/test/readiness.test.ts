// Health for load balancers and rolling restarts, on a real server process: /api/health/live answers while the
// process is up; /api/health/ready turns 503 the moment SIGTERM arrives, while the process still serves (for
// SHUTDOWN_DRAIN_MS), and a request in flight at that moment completes before the process exits.
import { request } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServerProcess, stopServerProcess } from "./server-process";

let proc: ServerProcess | undefined;
afterAll(async () => {
  await stopServerProcess(proc, "SIGKILL");
});

const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, body: await res.json() };
};

/** Opens a sign-up whose body is sent in two halves; `finish()` sends the rest and resolves with the answer. */
function slowSignUp(base: string) {
  const body = JSON.stringify({
    name: "Ines Draining",
    email: `ines.${Date.now()}@example.test`,
    password: "quiet-harbour-lantern-47",
  });
  let started: ReturnType<typeof request> | undefined;
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      `${base}/api/auth/sign-up`,
      { method: "POST", headers: { "content-type": "application/json", origin: base } },
      (res) => {
        let text = "";
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.write(body.slice(0, 20));
    started = req;
  });
  return {
    answer,
    finish() {
      started?.end(body.slice(20));
      return answer;
    },
  };
}

describe("GET /api/health/live and /api/health/ready", () => {
  it("answers live 200 and ready 200 while up; on SIGTERM ready turns 503 at once, live stays 200, the in-flight request completes", async () => {
    proc = await startServerProcess(null, { SHUTDOWN_DRAIN_MS: "1500" });
    expect(await get(`${proc.url}/api/health/live`)).toEqual({ status: 200, body: { status: "ok" } });
    expect(await get(`${proc.url}/api/health/ready`)).toEqual({
      status: 200,
      body: { status: "ready", database: { reachable: true } },
    });

    const inFlight = slowSignUp(proc.url);
    // The server has the request's head and part of its body before the signal.
    await new Promise((r) => setTimeout(r, 200));
    const exited = new Promise<number | null>((resolve) => proc?.child.once("exit", (code) => resolve(code)));
    proc.child.kill("SIGTERM");
    let ready = await get(`${proc.url}/api/health/ready`);
    for (let i = 0; i < 10 && ready.status === 200; i++) ready = await get(`${proc.url}/api/health/ready`);
    expect(ready).toEqual({ status: 503, body: { status: "draining", database: { reachable: true } } });
    expect(await get(`${proc.url}/api/health/live`)).toEqual({ status: 200, body: { status: "ok" } });

    // After the drain the listener closes: new connections are refused while the request in flight is still open…
    const refusedBy = Date.now() + 10_000;
    let refused = false;
    while (!refused && Date.now() < refusedBy) {
      refused = await fetch(`${proc.url}/api/health/live`).then(
        () => false,
        () => true,
      );
      if (!refused) await new Promise((r) => setTimeout(r, 100));
    }
    expect(refused).toBe(true);
    // …and it completes, then the process exits.
    const answer = await inFlight.finish();
    expect(answer.status, answer.text).toBe(201);
    expect(await exited).toBe(0);
  }, 90_000);
});
