import { Hono } from "hono";
import { requireUser } from "../auth/middleware";
import type { AppEnv } from "../context";
import { toUserDto } from "../services/users/dto";

export const meRoutes = new Hono<AppEnv>().get("/", (c) => c.json(toUserDto(requireUser(c))));
