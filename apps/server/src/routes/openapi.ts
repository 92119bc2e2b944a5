import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { AppError } from "../errors";
import { ApiRoutes, file, json, PUBLIC } from "../openapi/routes";

const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
const ASSETS = new Map([
  ["swagger-ui.css", "text/css; charset=utf-8"],
  ["swagger-ui-bundle.js", "text/javascript; charset=utf-8"],
]);

// No inline script, so the app-wide Content-Security-Policy (script-src 'self') holds on the docs page too; the
// reference's script and styles come from node_modules, so it works with no internet access.
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

const getDocument = createRoute({
  method: "get",
  path: "/openapi.json",
  operationId: "getOpenApiDocument",
  tags: ["Docs"],
  summary: "This document",
  security: PUBLIC,
  responses: { 200: json(z.record(z.string(), z.unknown()), "The OpenAPI 3.1 document, generated from the routes.") },
});

const getDocs = createRoute({
  method: "get",
  path: "/docs",
  operationId: "getApiDocs",
  tags: ["Docs"],
  summary: "Interactive reference of this document",
  security: PUBLIC,
  responses: { 200: file("text/html", "An HTML page.") },
});

/** GET /api/openapi.json and the interactive reference at /api/docs; `document` gives the document's text. */
export const openApiRoutes = (document: (serverUrl: string) => string) =>
  new ApiRoutes()
    .handleRaw(getDocument, (c) => {
      c.header("Cache-Control", "public, max-age=300");
      return c.body(document(c.get("deps").env.PUBLIC_URL), 200, { "Content-Type": "application/json; charset=utf-8" });
    })
    .handleRaw(getDocs, (c) => c.html(DOCS_HTML))
    // The reference's own files: not operations of the API.
    .get("/docs/init.js", (c) => c.body(INIT_JS, 200, { "Content-Type": "text/javascript; charset=utf-8" }))
    .get("/docs/:asset", (c) => {
      const type = ASSETS.get(c.req.param("asset"));
      if (!type) throw new AppError("not_found", "No such file.");
      c.header("Cache-Control", "public, max-age=86400");
      return c.body(readFileSync(path.join(swaggerUiDir, c.req.param("asset"))), 200, { "Content-Type": type });
    });
