// Evidence in an S3-compatible store (EVIDENCE_STORE=s3) against a real S3 protocol server: upload, download and
// hash through the HTTP API, removal, and `cli evidence migrate --to s3` from a local store.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envSchema } from "../src/env";
import { evidenceStore } from "../src/services/evidence/store";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";
import { startS3, type TestS3 } from "./s3";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const sha = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

let s3: TestS3;
let dataDir: string;
let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  s3 = await startS3();
  dataDir = mkdtempSync(path.join(tmpdir(), "tranche-evidence-s3-"));
  t = await createTestApp({ DATA_DIR: dataDir, ...s3.settings });
  owner = await t.user("project_owner");
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("EVIDENCE_STORE=s3", () => {
  it("refuses s3 without a bucket, naming the variable", () => {
    const bad = envSchema.safeParse({ EVIDENCE_STORE: "s3" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].path).toEqual(["S3_BUCKET"]);
  });

  it("uploads to the bucket in parts and downloads the same bytes, streamed", async () => {
    const project = await makeProject(t, { owner });
    const milestone = await makeMilestone(t, project);
    // Larger than one 8 MB part, so lib-storage sends a multipart upload.
    const big = Buffer.alloc(9 * 1024 * 1024 + 17);
    for (let i = 0; i < big.length; i += 4096) big[i] = (i / 4096) % 251;
    const data = new FormData();
    data.append("files", new Blob([big], { type: "application/pdf" }), "survey.pdf");
    data.append("files", new Blob(["site photo"], { type: "image/jpeg" }), "photo.jpg");
    const res = await t.request("POST", `/api/milestones/${milestone.id}/evidence`, { as: owner, raw: data });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [file, photo] = res.body.items;
    expect(file.sha256).toBe(sha(big));

    const store = evidenceStore(t.deps.env);
    expect(store.kind).toBe("s3");
    expect(await store.has(sha(big))).toBe(true);

    const download = await t.app.request(`/api/evidence/${file.id}`, { headers: { cookie: owner.cookie } });
    expect(download.status).toBe(200);
    expect(download.headers.get("x-evidence-sha256")).toBe(sha(big));
    expect(sha(Buffer.from(await download.arrayBuffer()))).toBe(sha(big));

    const removed = await t.request("DELETE", `/api/evidence/${photo.id}`, { as: owner });
    expect(removed.status).toBe(204);
    expect(await store.has(sha("site photo"))).toBe(false);
  });
});

describe("npm run cli -- evidence migrate --to s3", () => {
  // Asynchronous: the S3 server runs in this process and must keep answering while the command runs.
  const cli = (dir: string) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ["--import", "tsx", "apps/server/src/cli.ts", "evidence", "migrate", "--to", "s3"],
        {
          cwd: root,
          env: {
            ...process.env,
            ...s3.env,
            EVIDENCE_STORE: "local",
            DATA_DIR: dir,
            DATABASE_URL: "",
            LOG_LEVEL: "silent",
          },
        },
        (_error, stdout, stderr) => resolve({ status: child.exitCode, stdout, stderr }),
      );
    });

  it("copies every local file, checks each SHA-256, and fails on a damaged one", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tranche-migrate-"));
    try {
      mkdirSync(path.join(dir, "evidence"));
      const files = ["inspection report", "drone survey", "invoice"];
      for (const content of files) writeFileSync(path.join(dir, "evidence", sha(content)), content);
      const first = await cli(dir);
      expect(first.status, first.stderr).toBe(0);
      expect(first.stdout).toContain("3 copied, 0 already there, 3 verified, 0 mismatched, 0 missing");
      const store = evidenceStore(t.deps.env);
      for (const content of files) expect(await store.has(sha(content))).toBe(true);

      // A file whose bytes are not its name's hash (damaged on disk) is not copied, and the command fails.
      writeFileSync(path.join(dir, "evidence", sha("original")), "tampered");
      const second = await cli(dir);
      expect(second.status).toBe(2);
      expect(second.stdout).toContain("0 copied, 3 already there, 3 verified, 1 mismatched");
      expect(second.stderr).toContain(`mismatch: ${sha("original")}`);
      expect(await store.has(sha("original"))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
