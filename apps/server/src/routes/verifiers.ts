import { verifierListQuerySchema } from "@tranche/domain";
import { Hono } from "hono";
import type { AppEnv } from "../context";
import { parseQuery } from "../lib/validate";
import { listVerifiers } from "../services/verifiers/list";
import { serviceContext } from "./projects";

export const verifierRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const ctx = serviceContext(c);
  return c.json(await listVerifiers(ctx, parseQuery(c, verifierListQuerySchema)));
});
