// Statements with parameters are kept prepared on each PostgreSQL connection (db/client.ts, ADR 026): the second
// call of a statement reuses the first one's server-side statement instead of being parsed and planned again.
// DATABASE_PREPARED_STATEMENTS=false (a pooler that cannot carry them) prepares nothing.
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "../src/db/client";
import { createTestApp, type TestApp } from "./harness";

const apps: TestApp[] = [];
afterAll(() => Promise.all(apps.map((app) => app.close())));

/** Runs one statement twice on one connection (a transaction's), then lists what that connection has prepared. */
async function preparedAfterTwoCalls(app: TestApp) {
  return app.deps.db.transaction(async (tx) => {
    const rows = [];
    for (const id of ["a", "b"]) {
      rows.push(...(await queryRows<{ echo: string }>(tx, sql`select ${id}::text as echo, 'prepared-test' as tag`)));
    }
    const prepared = await queryRows<{ name: string; statement: string }>(
      tx,
      sql`select name, statement from pg_prepared_statements where statement like '%prepared-test%'
            and statement not like '%pg_prepared_statements%'`,
    );
    return { rows, prepared };
  });
}

describe("prepared statements", () => {
  it("keeps a statement with parameters prepared on its connection, once, and answers each call", async () => {
    const app = await createTestApp();
    apps.push(app);
    const { rows, prepared } = await preparedAfterTwoCalls(app);
    expect(rows.map((r) => r.echo)).toEqual(["a", "b"]);
    expect(prepared).toHaveLength(1);
    expect(prepared[0].name).toMatch(/^t[\w-]{27}$/);
  });

  it("plans a search with its pattern on every call: an ILIKE statement is never kept prepared", async () => {
    const app = await createTestApp();
    apps.push(app);
    const prepared = await app.deps.db.transaction(async (tx) => {
      for (const term of ["%a%", "%solar farm%"]) {
        await queryRows(tx, sql`select 'search-test' as tag where 'a solar farm' ilike ${term}`);
      }
      return queryRows<{ name: string }>(
        tx,
        sql`select name from pg_prepared_statements where statement like '%search-test%'
              and statement not like '%pg_prepared_statements%'`,
      );
    });
    expect(prepared).toEqual([]);
  });

  it("prepares nothing with DATABASE_PREPARED_STATEMENTS=false", async () => {
    const app = await createTestApp({ DATABASE_PREPARED_STATEMENTS: false });
    apps.push(app);
    const { rows, prepared } = await preparedAfterTwoCalls(app);
    expect(rows.map((r) => r.echo)).toEqual(["a", "b"]);
    expect(prepared).toEqual([]);
  });
});
