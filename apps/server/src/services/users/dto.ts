import type { UserDto } from "@tranche/domain";
import type { SessionUser } from "../../context";

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
