import { Hono } from "hono";
import type { AppEnv } from "../context";
import { listVerifiers } from "../services/verifiers/list";
import { serviceContext } from "./projects";

export const verifierRoutes = new Hono<AppEnv>().get("/", async (c) => c.json(await listVerifiers(serviceContext(c))));
