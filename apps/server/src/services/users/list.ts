import type { Page, UserAdminDto, UserSort, userListQuerySchema } from "@tranche/domain";
import { and, eq, ilike, or } from "drizzle-orm";
import type { z } from "zod";
import type { ServiceContext } from "../../context";
import { users } from "../../db/schema";
import { forbidden } from "../../errors";
import { byName, keyset, keysetPage, naturalOrder, type SortSpec } from "../../lib/keyset";
import { holdsSecondFactor } from "../mfa/second-factor";
import { containsPattern } from "../projects/list";
import { toUserAdminDto } from "./dto";

const id = { expr: users.id, type: "uuid" } as const;
const USER_SORT_SPECS: Record<UserSort, SortSpec> = {
  name: byName(users.name, users.id),
  newest: { name: "newest", direction: "desc", keys: [{ expr: users.createdAt, type: "timestamptz" }, id] },
  // In the names' natural order too ("user2" before "user10", "Zed" beside "zed"), answered by users_email_id_idx.
  email: { name: "email", direction: "asc", keys: [{ expr: naturalOrder(users.email), type: "text" }, id] },
};

/** One page of users with their roles (and whether they have a second factor), for the admin's user management screen. */
export async function listUsers({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: z.output<typeof userListQuerySchema>;
}): Promise<Page<UserAdminDto>> {
  if (ctx.actor.role !== "admin") throw forbidden("Only an admin can manage users.");
  const spec = USER_SORT_SPECS[input.sort];
  const page = keyset(spec, input.cursor);
  const pattern = input.q ? containsPattern(input.q) : undefined;
  const rows = await ctx.db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      role: users.role,
      organization: users.organization,
      verifiedOrganization: users.verifiedOrganization,
      organizationVerifiedAt: users.organizationVerifiedAt,
      avatarUrl: users.avatarUrl,
      emailVerifiedAt: users.emailVerifiedAt,
      createdAt: users.createdAt,
      // Whether "Reset second factor" applies to them.
      hasSecondFactor: holdsSecondFactor(users.id),
      keysetKeys: page.keys,
    })
    .from(users)
    .where(
      and(
        input.role ? eq(users.role, input.role) : undefined,
        // Answered by the trigram index users_search_trgm_idx.
        pattern ? or(ilike(users.name, pattern), ilike(users.email, pattern)) : undefined,
        page.after,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(input.limit + 1);
  const { page: items, nextCursor } = keysetPage(rows, input.limit, spec);
  return {
    items: items.map((u) => toUserAdminDto(u, u.hasSecondFactor)),
    nextCursor,
  };
}
