import { Navigate } from "react-router";
import { PageHeader } from "@/components/page-header";
import { useSession } from "@/features/auth/api/session";
import { InvitePeople } from "@/features/people/components/invite-people";
import { UsersTable } from "@/features/users/components/users-table";

export default function UsersPage() {
  const { data: user } = useSession();
  if (!user) return null;
  if (user.role !== "admin") return <Navigate to="/dashboard" replace />;
  return (
    <>
      <PageHeader
        title="Users"
        description="Invite people, and manage who uses Tranche and what role each person has."
      />
      <div className="grid gap-6">
        <InvitePeople />
        <UsersTable currentUserId={user.id} />
      </div>
    </>
  );
}
