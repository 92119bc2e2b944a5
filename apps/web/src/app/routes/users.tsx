import { Navigate } from "react-router";
import { PageHeader } from "@/components/page-header";
import { useSession } from "@/features/auth/api/session";
import { UsersTable } from "@/features/users/components/users-table";

export default function UsersPage() {
  const { data: user } = useSession();
  if (!user) return null;
  if (user.role !== "admin") return <Navigate to="/dashboard" replace />;
  return (
    <>
      <PageHeader title="Users" description="Manage who uses Tranche and what role each person has." />
      <UsersTable currentUserId={user.id} />
    </>
  );
}
