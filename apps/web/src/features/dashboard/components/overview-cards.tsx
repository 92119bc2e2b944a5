import { formatCount, formatMoneyCompact, type OverviewDto } from "@tranche/domain";
import { AlertTriangleIcon, ClockIcon, ShieldCheckIcon } from "lucide-react";
import { MoneyLines } from "./money-lines";
import { StatCard } from "./stat-card";

const signed = (n: number) => `${n > 0 ? "+" : ""}${n.toFixed(1)}%`;

function protectedChange(rows: OverviewDto["capitalProtected"]) {
  if (rows.length === 0) return "No verified capital yet";
  if (rows.every((r) => r.changePercent === null)) return "All released in the last 30 days";
  const change = (r: (typeof rows)[number]) => (r.changePercent === null ? "new" : signed(r.changePercent));
  if (rows.length === 1) return `${change(rows[0])} from last month`;
  return `${rows.map((r) => `${r.currency} ${change(r)}`).join(" · ")} from last month`;
}

/** The dashboard's three Overview cards, with the caller's live figures. */
export function OverviewCards({ overview }: { overview: OverviewDto }) {
  const { capitalProtected, pendingVerification, actionRequired } = overview;
  const pending = pendingVerification.count;
  return (
    <div className="grid gap-4 md:grid-cols-3">
      <StatCard
        testId="card-capital-protected"
        title="Capital Protected"
        icon={ShieldCheckIcon}
        value={
          capitalProtected.length === 0 ? (
            formatMoneyCompact(0, "USD")
          ) : (
            <MoneyLines totals={capitalProtected.map(({ currency, amount }) => ({ currency, amount }))} />
          )
        }
        detail={protectedChange(capitalProtected)}
      />
      <StatCard
        testId="card-pending-verification"
        title="Pending Verification"
        icon={ClockIcon}
        value={<MoneyLines totals={pendingVerification.capital} />}
        detail={`${formatCount(pending)} ${pending === 1 ? "milestone" : "milestones"} pending`}
      />
      <StatCard
        testId="card-action-required"
        title="Action Required"
        icon={AlertTriangleIcon}
        value={`${formatCount(actionRequired.count)} ${actionRequired.count === 1 ? "item" : "items"}`}
        detail={actionRequired.count === 0 ? "Nothing waiting on you" : `Review ${actionRequired.label}`}
      />
    </div>
  );
}
