// Evidence files in DATA_DIR/evidence, each named by its SHA-256.
import { randomUUID } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { copyFile, mkdir, readdir, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";
import type { Env } from "../../env";
import { type EvidenceStore, SHA256_NAME } from "./store-types";

export const evidenceDir = (env: Env) => path.resolve(env.DATA_DIR, "evidence");

export function localStore(env: Env): EvidenceStore {
  const dir = evidenceDir(env);
  const file = (sha256: string) => path.join(dir, sha256);
  return {
    kind: "local",
    location: dir,
    async putFile(sha256, source, { keep }) {
      await mkdir(dir, { recursive: true });
      if (existsSync(file(sha256))) {
        if (!keep) await unlink(source).catch(() => {});
        return;
      }
      if (!keep) {
        await rename(source, file(sha256));
        return;
      }
      // Copied aside and renamed, so a reader never sees half a file under its hash.
      const partial = path.join(dir, `.${sha256}.${randomUUID()}.part`);
      await copyFile(source, partial);
      await rename(partial, file(sha256));
    },
    async open(sha256) {
      if (!existsSync(file(sha256))) return null;
      return createReadStream(file(sha256));
    },
    async has(sha256) {
      return existsSync(file(sha256));
    },
    async remove(sha256) {
      await unlink(file(sha256)).catch(() => {});
    },
    async *list() {
      const names = await readdir(dir).catch(() => [] as string[]);
      for (const name of names.sort()) {
        if (!SHA256_NAME.test(name)) continue;
        yield { sha256: name, size: (await stat(file(name))).size };
      }
    },
  };
}
