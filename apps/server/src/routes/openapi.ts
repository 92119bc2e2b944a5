import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Hono } from "hono";
import type { AppEnv } from "../context";
import { AppError } from "../errors";
import { openApiDocument } from "../openapi/document";

const API_VERSION = "1.0.0";
const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
const ASSETS = new Map([
  ["swagger-ui.css", "text/css; charset=utf-8"],
  ["swagger-ui-bundle.js", "text/javascript; charset=utf-8"],
]);

// No inline script, so the app-wide Content-Security-Policy (script-src 'self') holds on the docs page too.
const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tranche API</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<div id="docs"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>
`;
const INIT_JS = `window.ui = SwaggerUIBundle({ url: "/api/openapi.json", dom_id: "#docs", deepLinking: true });\n`;

/** The document per public address (it names the server); built once. */
const documents = new Map<string, string>();

export const openApiRoutes = new Hono<AppEnv>()
  /** GET /api/openapi.json: the OpenAPI 3.1 document, generated from the schemas the server validates with. */
  .get("/openapi.json", (c) => {
    const serverUrl = c.get("deps").env.PUBLIC_URL;
    let document = documents.get(serverUrl);
    if (!document) {
      document = JSON.stringify(openApiDocument({ serverUrl, version: API_VERSION }));
      documents.set(serverUrl, document);
    }
    c.header("Cache-Control", "public, max-age=300");
    return c.body(document, 200, { "Content-Type": "application/json; charset=utf-8" });
  })
  /** GET /api/docs: interactive documentation of the same document. */
  .get("/docs", (c) => c.html(DOCS_HTML))
  .get("/docs/init.js", (c) => c.body(INIT_JS, 200, { "Content-Type": "text/javascript; charset=utf-8" }))
  .get("/docs/:asset", (c) => {
    const name = c.req.param("asset");
    const type = ASSETS.get(name);
    if (!type) throw new AppError("not_found", "No such file.");
    c.header("Cache-Control", "public, max-age=86400");
    return c.body(readFileSync(path.join(swaggerUiDir, name)), 200, { "Content-Type": type });
  });
