import { Link } from "react-router";
import { countOf } from "@/components/paging-footer";

/** Below a dashboard's project list that holds only the first `shown` of `total`: how many, and where the rest are. */
export function AllProjectsLink({ shown, total }: { shown: number; total: number }) {
  if (shown >= total) return null;
  return (
    <p className="mt-3 flex flex-wrap justify-between gap-2 text-sm text-muted-foreground">
      <span>
        Showing {shown} of {countOf(total, "projects")}
      </span>
      <Link to="/projects" className="font-medium text-slate-900 underline-offset-4 hover:underline">
        View all projects
      </Link>
    </p>
  );
}
