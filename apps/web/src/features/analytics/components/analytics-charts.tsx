// The Reports charts (Recharts, loaded only with this module). Each chart says in a sentence what it shows and
// can be read as a table instead.
import { createColumnHelper } from "@tanstack/react-table";
import { type AnalyticsDto, formatMoney } from "@tranche/domain";
import { useId, useState } from "react";
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState, LoadError, Skeleton } from "@/components/ui/feedback";
import { useAnalytics } from "../api/get-analytics";

const COLORS = {
  released: "#0f766e",
  settled: "#1e3a8a",
  pending: "#94a3b8",
  inVerification: "#d97706",
  verified: "#15803d",
  rejected: "#b91c1c",
  delayed: "#7c3aed",
};

/** '2026-11' → 'Nov 2026'. */
const monthLabel = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString("en-US", { month: "short", year: "numeric", timeZone: "UTC" });
const compactMoney = (amount: number, currency: string) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency, notation: "compact", maximumFractionDigits: 1 }).format(
    amount,
  );

interface Column<Row> {
  label: string;
  value: (row: Row) => string;
}

/** A chart with its one-sentence summary and a table of the same figures behind a toggle. */
function ChartCard<Row>({
  title,
  summary,
  rows,
  columns,
  children,
}: {
  title: string;
  summary: string;
  rows: Row[];
  columns: Column<Row>[];
  children: React.ReactElement;
}) {
  const [asTable, setAsTable] = useState(false);
  const id = useId();
  const helper = createColumnHelper<Row>();
  const tableColumns = columns.map((c) =>
    helper.accessor(c.value, { id: c.label, header: c.label, meta: { className: "tabular-nums" } }),
  );
  return (
    <Card role="figure" aria-labelledby={`${id}-title`} aria-describedby={`${id}-summary`} className="min-w-0">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <CardTitle id={`${id}-title`}>{title}</CardTitle>
          <p id={`${id}-summary`} className="mt-1 text-sm text-muted-foreground">
            {summary}
          </p>
        </div>
        <Button size="sm" variant="outline" onClick={() => setAsTable(!asTable)} aria-pressed={asTable}>
          {asTable ? "Show chart" : "Show table"}
        </Button>
      </CardHeader>
      <CardContent>
        {asTable ? (
          <DataTable label={title} columns={tableColumns} rows={rows} cards={false} />
        ) : (
          // Hidden from assistive technology (the summary above and "Show table" say the same), so nothing in it
          // may take focus: recharts' keyboard layer is off on every chart here.
          <div className="h-64 w-full" aria-hidden>
            <ResponsiveContainer width="100%" height="100%">
              {children}
            </ResponsiveContainer>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function CapitalChart({ series }: { series: AnalyticsDto["capital"][number] }) {
  const { currency, points } = series;
  const last = points.at(-1) ?? { month: "", released: 0, settled: 0 };
  const money = (n: number) => formatMoney(n, currency);
  return (
    <ChartCard
      title={`Capital released and settled (${currency})`}
      summary={`By ${monthLabel(last.month)}, ${money(last.released)} released, of which ${money(last.settled)} settled by the custodian.`}
      rows={points}
      columns={[
        { label: "Month", value: (p) => monthLabel(p.month) },
        { label: "Released", value: (p) => money(p.released) },
        { label: "Settled", value: (p) => money(p.settled) },
      ]}
    >
      <AreaChart accessibilityLayer={false} data={points} margin={{ left: 4, right: 8, top: 8 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="month" tickFormatter={monthLabel} fontSize={12} minTickGap={24} />
        <YAxis tickFormatter={(v: number) => compactMoney(v, currency)} fontSize={12} width={64} />
        <Tooltip labelFormatter={(m) => monthLabel(String(m))} formatter={(v) => money(Number(v))} />
        <Legend />
        <Area
          isAnimationActive={false}
          type="stepAfter"
          dataKey="released"
          name="Released"
          stroke={COLORS.released}
          fill={COLORS.released}
          fillOpacity={0.15}
        />
        <Area
          isAnimationActive={false}
          type="stepAfter"
          dataKey="settled"
          name="Settled"
          stroke={COLORS.settled}
          fill={COLORS.settled}
          fillOpacity={0.25}
        />
      </AreaChart>
    </ChartCard>
  );
}

function MilestonesChart({ points }: { points: AnalyticsDto["milestones"] }) {
  const last = points.at(-1) ?? { month: "", pending: 0, inVerification: 0, verified: 0, rejected: 0, delayed: 0 };
  const total = last.pending + last.inVerification + last.verified + last.rejected + last.delayed;
  return (
    <ChartCard
      title="Milestones by status"
      summary={`Now ${total} milestones: ${last.verified} verified, ${last.inVerification} in verification, ${last.pending} pending, ${last.rejected} rejected${last.delayed ? `, ${last.delayed} delayed` : ""}.`}
      rows={points}
      columns={[
        { label: "Month", value: (p) => monthLabel(p.month) },
        { label: "Pending", value: (p) => String(p.pending) },
        { label: "In verification", value: (p) => String(p.inVerification) },
        { label: "Verified", value: (p) => String(p.verified) },
        { label: "Rejected", value: (p) => String(p.rejected) },
        { label: "Delayed", value: (p) => String(p.delayed) },
      ]}
    >
      <BarChart accessibilityLayer={false} data={points} margin={{ left: 4, right: 8, top: 8 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="month" tickFormatter={monthLabel} fontSize={12} minTickGap={24} />
        <YAxis allowDecimals={false} fontSize={12} width={40} />
        <Tooltip labelFormatter={(m) => monthLabel(String(m))} />
        <Legend />
        <Bar isAnimationActive={false} dataKey="verified" name="Verified" stackId="s" fill={COLORS.verified} />
        <Bar
          isAnimationActive={false}
          dataKey="inVerification"
          name="In verification"
          stackId="s"
          fill={COLORS.inVerification}
        />
        <Bar isAnimationActive={false} dataKey="pending" name="Pending" stackId="s" fill={COLORS.pending} />
        <Bar isAnimationActive={false} dataKey="rejected" name="Rejected" stackId="s" fill={COLORS.rejected} />
        <Bar isAnimationActive={false} dataKey="delayed" name="Delayed" stackId="s" fill={COLORS.delayed} />
      </BarChart>
    </ChartCard>
  );
}

function UpcomingChart({ series }: { series: AnalyticsDto["upcoming"][number] }) {
  const { currency, points } = series;
  const total = points.reduce((sum, p) => sum + p.amount, 0);
  const busiest = points.reduce((top, p) => (p.amount > top.amount ? p : top), points[0]);
  const money = (n: number) => formatMoney(n, currency);
  return (
    <ChartCard
      title={`Upcoming releases (${currency})`}
      summary={
        total === 0
          ? "No undecided milestones are due in the next 12 months."
          : `${money(total)} due for verification in the next 12 months; the most in ${monthLabel(busiest.month)} (${money(busiest.amount)}).`
      }
      rows={points}
      columns={[
        { label: "Month", value: (p) => monthLabel(p.month) },
        { label: "Capital due", value: (p) => money(p.amount) },
      ]}
    >
      <BarChart accessibilityLayer={false} data={points} margin={{ left: 4, right: 8, top: 8 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="month" tickFormatter={monthLabel} fontSize={12} minTickGap={24} />
        <YAxis tickFormatter={(v: number) => compactMoney(v, currency)} fontSize={12} width={64} />
        <Tooltip labelFormatter={(m) => monthLabel(String(m))} formatter={(v) => money(Number(v))} />
        <Bar isAnimationActive={false} dataKey="amount" name="Capital due" fill={COLORS.released} />
      </BarChart>
    </ChartCard>
  );
}

function TurnaroundChart({ buckets }: { buckets: NonNullable<AnalyticsDto["turnaround"]> }) {
  const total = buckets.reduce((sum, b) => sum + b.count, 0);
  const withinWeek = buckets.slice(0, 3).reduce((sum, b) => sum + b.count, 0);
  return (
    <ChartCard
      title="Verification turnaround"
      summary={
        total === 0
          ? "No verification has been decided yet."
          : `${total} decisions; ${Math.round((withinWeek / total) * 100)}% within 7 days of the verification starting.`
      }
      rows={buckets}
      columns={[
        { label: "Start to decision", value: (b) => b.bucket },
        { label: "Decisions", value: (b) => String(b.count) },
      ]}
    >
      <BarChart accessibilityLayer={false} data={buckets} margin={{ left: 4, right: 8, top: 8 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="bucket" fontSize={12} interval={0} angle={-20} textAnchor="end" height={48} />
        <YAxis allowDecimals={false} fontSize={12} width={40} />
        <Tooltip />
        <Bar isAnimationActive={false} dataKey="count" name="Decisions" fill={COLORS.settled} />
      </BarChart>
    </ChartCard>
  );
}

/** Reports: capital over time, milestones by status, upcoming releases (and turnaround for admins). */
export default function AnalyticsCharts({ turnaround = false }: { turnaround?: boolean }) {
  const { data, isPending, isError, error, refetch } = useAnalytics();
  if (isPending) return <Skeleton className="h-72" />;
  if (isError) return <LoadError title="Could not load the charts" error={error} onRetry={refetch} />;
  if (turnaround) return data.turnaround ? <TurnaroundChart buckets={data.turnaround} /> : null;
  if (data.capital.length === 0 && data.upcoming.length === 0) {
    return (
      <EmptyState title="Nothing to chart yet">
        Charts appear once your projects have milestones and releases.
      </EmptyState>
    );
  }
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      {data.capital.map((series) => (
        <CapitalChart key={series.currency} series={series} />
      ))}
      <MilestonesChart points={data.milestones} />
      {data.upcoming.map((series) => (
        <UpcomingChart key={series.currency} series={series} />
      ))}
    </div>
  );
}
