import type { Role, UserAdminDto, UserDto } from "@tranche/domain";
import type { SessionUser } from "../../context";
import type { users } from "../../db/schema";

export function toUserDto(user: Omit<SessionUser, "sessionId" | "mfaVerifiedAt">): UserDto {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    role: user.role,
    organization: user.organization,
    avatar: user.avatarUrl,
    emailVerifiedAt: user.emailVerifiedAt?.toISOString() ?? null,
  };
}

type UserRow = Pick<
  typeof users.$inferSelect,
  | "id"
  | "name"
  | "email"
  | "role"
  | "organization"
  | "avatarUrl"
  | "emailVerifiedAt"
  | "createdAt"
  | "verifiedOrganization"
  | "organizationVerifiedAt"
>;

/** A user as the admin's user management sees them (list, role change, second factor reset). */
export function toUserAdminDto(row: UserRow, hasSecondFactor: boolean): UserAdminDto {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role as Role,
    organization: row.organization,
    avatar: row.avatarUrl,
    emailVerifiedAt: row.emailVerifiedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    verifiedOrganization: row.verifiedOrganization,
    organizationVerifiedAt: row.organizationVerifiedAt?.toISOString() ?? null,
    hasSecondFactor,
  };
}
