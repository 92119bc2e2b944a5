// CSV exports: what the list shows (visibility and filters), exact amounts, formula neutralising, and a large
// export streamed batch by batch.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPORT_BATCH } from "../src/services/projects/export";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

/** A small RFC 4180 reader: rows of cells, quotes and doubled quotes undone. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += ch;
  }
  return rows;
}

/** The response and its text (decoding as UTF-8 drops the byte-order mark; `bytes` keeps it). */
async function download(t: TestApp, url: string, as: TestUser) {
  const res = await t.app.request(url, { headers: { cookie: as.cookie } });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { res, bytes, text: new TextDecoder().decode(bytes) };
}

let t: TestApp;
let owner: TestUser;
let other: TestUser;
let admin: TestUser;
let verifier: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [owner, other, admin, verifier] = await Promise.all([
    t.user("project_owner"),
    t.user("project_owner"),
    t.user("admin"),
    t.user("verifier"),
  ]);
});
afterAll(() => t?.close());

describe("GET /api/projects/export.csv", () => {
  it("is a UTF-8 CSV download with a header row, exact decimal amounts and only the caller's projects", async () => {
    const solar = await makeProject(t, {
      owner,
      verifiers: [verifier],
      name: "Solar Ü – phase 1",
      totalCapital: 2_400_000.5,
    });
    await makeMilestone(t, solar, { status: "verified", verifier, capitalAmount: 600_000.25 });
    await makeProject(t, { owner: other, name: "Someone else's project" });

    const { res, bytes, text } = await download(t, "/api/projects/export.csv", owner);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="projects-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([
      "id",
      "name",
      "status",
      "currency",
      "total_capital",
      "released",
      "remaining",
      "milestones",
      "start_date",
      "end_date",
      "location",
      "created_at",
    ]);
    expect(rows).toHaveLength(1);
    const row = Object.fromEntries(header.map((name, i) => [name, rows[0][i]]));
    expect(row).toMatchObject({
      id: solar.id,
      name: "Solar Ü – phase 1",
      status: "verified",
      currency: "USD",
      total_capital: "2400000.50",
      released: "600000.25",
      remaining: "1800000.25",
      milestones: "1",
      location: "Test City",
    });
    expect(new Date(row.created_at).toISOString()).toBe(row.created_at);
  });

  it("neutralises cells a spreadsheet would run as formulas and quotes commas, quotes and line breaks", async () => {
    // Full-width ＝ and ＋ are read as formulas by some spreadsheets (Apple Numbers) too.
    const names = [
      '=HYPERLINK("http://x","y")',
      "+1+2",
      "-3",
      "@SUM(A1)",
      'A "quoted", name',
      "two\nlines",
      "＝1+1",
      "＋1",
    ];
    const user = await t.user("project_owner");
    for (const name of names) await makeProject(t, { owner: user, name });
    const { text } = await download(t, "/api/projects/export.csv", user);
    expect(text).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    const exported = parseCsv(text)
      .slice(1)
      .map((row) => row[1]);
    expect(exported.sort()).toEqual(
      [
        '\'=HYPERLINK("http://x","y")',
        "'+1+2",
        "'-3",
        "'@SUM(A1)",
        'A "quoted", name',
        "two\nlines",
        "'＝1+1",
        "'＋1",
      ].sort(),
    );
  });

  it("honours the list's filters (status, search) and refuses a bad one with 400", async () => {
    const user = await t.user("project_owner");
    await makeProject(t, { owner: user, name: "Harbour wind farm" });
    const hospital = await makeProject(t, { owner: user, name: "Regional hospital" });
    await makeMilestone(t, hospital, { status: "verified", verifier, capitalAmount: 1_000_000 });
    const names = async (query: string) =>
      parseCsv((await download(t, `/api/projects/export.csv${query}`, user)).text)
        .slice(1)
        .map((row) => row[1]);
    expect((await names("")).sort()).toEqual(["Harbour wind farm", "Regional hospital"]);
    expect(await names("?q=harbour")).toEqual(["Harbour wind farm"]);
    expect(await names("?status=funded")).toEqual(["Regional hospital"]);
    expect(await names("?status=funded&q=harbour")).toEqual([]);
    const bad = await t.request("GET", "/api/projects/export.csv?status=sideways", { as: user });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_input");
    const signedOut = await t.request("GET", "/api/projects/export.csv");
    expect(signedOut.status).toBe(401);
  });

  it("streams a large export batch by batch: every project once, in the list's default sort (newest first)", async () => {
    const count = EXPORT_BATCH * 4 + 7;
    // Created in bulk with many identical timestamps, so the (created_at, id) paging is really exercised.
    await t.deps.db.execute(sql`
      insert into projects (name, description, total_capital, created_by, created_at)
      select 'Bulk ' || n, 'bulk', 1000 + n, ${admin.id}, now() - interval '1 day' + (n / 100) * interval '1 second'
      from generate_series(1, ${count}) as n`);
    const res = await t.app.request("/api/projects/export.csv?q=Bulk", { headers: { cookie: admin.cookie } });
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    let chunks = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks++;
      text += decoder.decode(value, { stream: true });
    }
    // The header, then one chunk per batch of rows: never the whole export at once.
    expect(chunks).toBeGreaterThanOrEqual(Math.ceil(count / EXPORT_BATCH) + 1);
    const rows = parseCsv(text).slice(1);
    expect(rows).toHaveLength(count);
    expect(new Set(rows.map((row) => row[0])).size).toBe(count);
    const created = rows.map((row) => row[11]);
    expect([...created].sort().reverse()).toEqual(created);
  });

  it("comes in the order the list shows for each of its sorts, and refuses an unknown sort with 400", async () => {
    const user = await t.user("project_owner");
    // Names, creation times and next due dates in different orders, so each sort gives another order.
    const made = [];
    for (const [name, dueInDays] of [
      ["Canal lock", 30],
      ["Airport apron", 90],
      ["Bus depot", 10],
    ] as const) {
      const project = await makeProject(t, { owner: user, name });
      await makeMilestone(t, project, { dueInDays });
      made.push(project);
    }
    for (const sort of ["newest", "name", "next_due", "activity"]) {
      const list = await t.request("GET", `/api/projects?sort=${sort}&limit=100`, { as: user });
      const listed = (list.body.items as { name: string }[]).map((p) => p.name);
      const exported = parseCsv((await download(t, `/api/projects/export.csv?sort=${sort}`, user)).text)
        .slice(1)
        .map((row) => row[1]);
      expect(exported, sort).toEqual(listed);
    }
    const names = async (sort: string) =>
      parseCsv((await download(t, `/api/projects/export.csv?sort=${sort}`, user)).text)
        .slice(1)
        .map((row) => row[1]);
    expect(await names("name")).toEqual(["Airport apron", "Bus depot", "Canal lock"]);
    expect(await names("newest")).toEqual(["Bus depot", "Airport apron", "Canal lock"]);
    expect(await names("next_due")).toEqual(["Bus depot", "Canal lock", "Airport apron"]);
    const bad = await t.request("GET", "/api/projects/export.csv?sort=sideways", { as: user });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toHaveProperty("sort");
  });
});

describe("GET /api/milestones/export.csv", () => {
  it("lists the caller's milestones with the list's filters, exact amounts and neutralised titles", async () => {
    const user = await t.user("project_owner");
    const project = await makeProject(t, {
      owner: user,
      verifiers: [verifier],
      name: "Bridge, north span",
      currency: "EUR",
    });
    const done = await makeMilestone(t, project, {
      title: "Deck poured",
      status: "verified",
      verifier,
      capitalAmount: 125_000.75,
      dueInDays: 5,
    });
    await makeMilestone(t, project, { title: "=cmd|' /C calc'!A0", capitalAmount: 10, dueInDays: 40 });
    const elsewhere = await makeProject(t, { owner: other, name: "Not theirs" });
    await makeMilestone(t, elsewhere, { title: "Invisible" });

    const { res, text } = await download(t, "/api/milestones/export.csv", user);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/filename="milestones-\d{4}-\d{2}-\d{2}\.csv"/);
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([
      "id",
      "project_id",
      "project",
      "title",
      "status",
      "currency",
      "amount",
      "due_date",
      "verifier",
      "verification_date",
      "created_at",
    ]);
    expect(rows.map((row) => row[3])).toEqual(["Deck poured", "'=cmd|' /C calc'!A0"]);
    const first = Object.fromEntries(header.map((name, i) => [name, rows[0][i]]));
    expect(first).toMatchObject({
      id: done.id,
      project_id: project.id,
      project: "Bridge, north span",
      status: "verified",
      currency: "EUR",
      amount: "125000.75",
      verifier: verifier.name,
    });
    expect(text).toContain('"Bridge, north span"');

    const verified = parseCsv((await download(t, "/api/milestones/export.csv?status=verified", user)).text);
    expect(verified.slice(1).map((row) => row[3])).toEqual(["Deck poured"]);
    const bad = await t.request("GET", "/api/milestones/export.csv?dueBefore=2025-02-30", { as: user });
    expect(bad.status).toBe(400);
  });

  it("comes in the order the list shows for each of its sorts", async () => {
    const user = await t.user("project_owner");
    const project = await makeProject(t, { owner: user, verifiers: [verifier], totalCapital: 10_000_000 });
    // Due dates, creation order and amounts each give another order.
    for (const [title, dueInDays, capitalAmount] of [
      ["Piles driven", 20, 500],
      ["Survey done", 60, 9_000],
      ["Roof on", 5, 2_000],
    ] as const)
      await makeMilestone(t, project, { title, dueInDays, capitalAmount });
    const titles = async (sort: string) =>
      parseCsv((await download(t, `/api/milestones/export.csv?sort=${sort}`, user)).text)
        .slice(1)
        .map((row) => row[3]);
    for (const sort of ["due", "newest", "amount"]) {
      const list = await t.request("GET", `/api/milestones?sort=${sort}&limit=100`, { as: user });
      expect(await titles(sort), sort).toEqual((list.body.items as { title: string }[]).map((m) => m.title));
    }
    expect(await titles("due")).toEqual(["Roof on", "Piles driven", "Survey done"]);
    expect(await titles("newest")).toEqual(["Roof on", "Survey done", "Piles driven"]);
    expect(await titles("amount")).toEqual(["Survey done", "Roof on", "Piles driven"]);
    const bad = await t.request("GET", "/api/milestones/export.csv?sort=sideways", { as: user });
    expect(bad.status).toBe(400);
  });
});

describe("GET /api/audit/export.csv", () => {
  it("lists the audit events of the caller's projects (admins: all), oldest first, with their JSON and hash", async () => {
    const user = await t.user("project_owner");
    const stranger = await t.user("project_owner");
    const created = await t.request("POST", "/api/projects", {
      as: user,
      body: {
        name: "@Audit trail, exported",
        description: "Exported events",
        location: "Accra",
        totalCapital: 750_000,
      },
    });
    expect(created.status).toBe(201);
    const projectId = created.body.id as string;
    await t.request("PATCH", `/api/projects/${projectId}`, { as: user, body: { location: "Kumasi" } });

    const { res, text } = await download(t, `/api/audit/export.csv?projectId=${projectId}`, user);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/filename="audit-events-\d{4}-\d{2}-\d{2}\.csv"/);
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([
      "id",
      "created_at",
      "action",
      "actor_id",
      "actor",
      "entity_type",
      "entity_id",
      "project_id",
      "before",
      "after",
      "hash",
    ]);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const ids = rows.map((row) => Number(row[0]));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(rows.every((row) => row[7] === projectId && row[3] === user.id && row[4] === user.name)).toBe(true);
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row[10]))).toBe(true);
    const creation = rows.find((row) => row[9].includes("@Audit trail, exported"));
    expect(JSON.parse(creation?.[9] ?? "null")).toMatchObject({ name: "@Audit trail, exported" });
    const edit = rows[rows.length - 1];
    expect(JSON.parse(edit[8])).toMatchObject({ location: "Accra" });
    expect(JSON.parse(edit[9])).toMatchObject({ location: "Kumasi" });

    // Someone who is not on the project gets the header row only; an admin gets the same events.
    expect(parseCsv((await download(t, `/api/audit/export.csv?projectId=${projectId}`, stranger)).text)).toHaveLength(
      1,
    );
    const adminRows = parseCsv((await download(t, `/api/audit/export.csv?projectId=${projectId}`, admin)).text);
    expect(adminRows.slice(1).map((row) => row[0])).toEqual(ids.map(String));
    const bad = await t.request("GET", "/api/audit/export.csv?projectId=nope", { as: user });
    expect(bad.status).toBe(400);
  });
});

describe("GET /api/releases/export.csv", () => {
  it("lists the releases the caller may see with the list's filters and exact amounts, also for a token", async () => {
    const investor = await t.user("investor");
    const project = await makeProject(t, {
      owner,
      investors: [investor],
      verifiers: [verifier],
      name: "=Release export",
    });
    await makeMilestone(t, project, { status: "verified", verifier, capitalAmount: 1234.56, title: "+First" });
    await makeMilestone(t, project, { status: "verified", verifier, capitalAmount: 99, title: "Second" });

    const { res, text } = await download(t, `/api/releases/export.csv?projectId=${project.id}`, investor);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/filename="releases-\d{4}-\d{2}-\d{2}\.csv"/);
    const [header, ...rows] = parseCsv(text);
    expect(header.slice(0, 7)).toEqual([
      "id",
      "instruction_id",
      "status",
      "currency",
      "amount",
      "project",
      "milestone",
    ]);
    expect(rows.map((r) => [r[2], r[4], r[5], r[6]])).toEqual([
      ["instructed", "1234.56", "'=Release export", "'+First"],
      ["instructed", "99.00", "'=Release export", "Second"],
    ]);
    const settled = await download(t, `/api/releases/export.csv?projectId=${project.id}&status=settled`, investor);
    expect(parseCsv(settled.text)).toHaveLength(1);
    // Not on the project: the header row only.
    expect(parseCsv((await download(t, `/api/releases/export.csv?projectId=${project.id}`, other)).text)).toHaveLength(
      1,
    );

    const token = await t.request("POST", "/api/api-tokens", {
      as: admin,
      body: { name: "Export", scopes: ["releases:read"] },
    });
    const viaToken = await t.app.request(`/api/releases/export.csv?projectId=${project.id}`, {
      headers: { authorization: `Bearer ${token.body.token}` },
    });
    expect(viaToken.status).toBe(200);
    expect(parseCsv(await viaToken.text())).toHaveLength(3);
    expect((await t.request("GET", "/api/releases/export.csv?status=paid", { as: investor })).status).toBe(400);
  });
});
