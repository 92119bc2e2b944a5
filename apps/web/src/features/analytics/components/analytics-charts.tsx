// The Reports charts (Recharts, loaded only with this module). Each chart says in a sentence what it shows and
// can be read as a table instead.
import { createColumnHelper } from "@tanstack/react-table";
import { type AnalyticsDto, formatCountCompact, formatMoney, formatMoneyCompact, formatMonth } from "@tranche/domain";
import { type ReactElement, useId, useLayoutEffect, useRef, useState } from "react";
import { Area, AreaChart, Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState, LoadError, Skeleton } from "@/components/ui/feedback";
import { whenIdle } from "@/lib/when-idle";
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

interface Column<Row> {
  label: string;
  value: (row: Row) => string;
}

const CHART_HEIGHT = 256;
const LEGEND_HEIGHT = 28;
/** A chart below the window is drawn once it is this close to coming into view: about one card. */
const NEAR_PX = 400;

interface Series {
  label: string;
  color: string;
}
/**
 * How many months to skip between labelled ticks so that labels ("May 2026", about 56 px at 12 px) keep 24 px
 * apart. Worked out here because Recharts' own spacing (minTickGap, and its default on the y axis, whose five
 * ticks always fit) measures every label's text in the page on each draw: a forced layout per label.
 */
function monthTicks(months: number, width: number): number {
  const fit = Math.max(1, Math.floor((width - 72) / 80));
  return Math.max(0, Math.ceil(months / fit) - 1);
}

/** The x axis of a chart by month: `months` of them across `width`. */
const monthAxis = (months: number, width: number) => (
  <XAxis dataKey="month" tickFormatter={formatMonth} fontSize={12} interval={monthTicks(months, width)} />
);

/** Draws a chart at `width` × `height`; `pointed` once a pointer has been over it (its tooltip is drawn from then). */
type Draw = (size: { width: number; height: number; pointed: boolean }) => ReactElement;

/**
 * The chart drawn at the width of its box, measured before the first paint and again when the box resizes.
 * A chart in the window is drawn with the page; one below it when it comes near, or when the page is idle,
 * whichever is first. Recharts' ResponsiveContainer drew every chart twice on a page load (once unsized,
 * once measured) and its Legend a third time (once measured); with six charts that was 0.2 s of one task.
 */
function SizedChart({ draw, legend }: { draw: Draw; legend?: Series[] }) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [near, setNear] = useState(false);
  const [pointed, setPointed] = useState(false);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const rect = element.getBoundingClientRect();
    setWidth(Math.floor(rect.width));
    const resizes = new ResizeObserver(([entry]) => setWidth(Math.floor(entry.contentRect.width)));
    resizes.observe(element);
    if (rect.top < window.innerHeight && rect.bottom > 0) {
      setNear(true);
      return () => resizes.disconnect();
    }
    const draw = () => setNear(true);
    const comes = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && draw(), {
      rootMargin: `${NEAR_PX}px 0px`,
    });
    comes.observe(element);
    const cancelIdle = whenIdle(draw, { timeout: 2000, otherwise: 200 });
    return () => {
      resizes.disconnect();
      comes.disconnect();
      cancelIdle();
    };
  }, []);
  const height = CHART_HEIGHT - (legend ? LEGEND_HEIGHT : 0);
  return (
    // Hidden from assistive technology (the summary above and "Show table" say the same), so nothing in it may
    // take focus: recharts' keyboard layer is off on every chart here.
    <div aria-hidden onPointerEnter={pointed ? undefined : () => setPointed(true)}>
      <div ref={box} className="w-full" style={{ height }}>
        {near && width > 0 && draw({ width, height, pointed })}
      </div>
      {legend && (
        // As tall as one line (a chart with a legend is drawn that much shorter); on a phone it may take two.
        <ul
          className="flex flex-wrap justify-center gap-x-4 text-xs text-muted-foreground"
          style={{ minHeight: LEGEND_HEIGHT }}
        >
          {legend.map((series) => (
            <li key={series.label} className="flex items-center gap-1.5 pt-2">
              <span className="size-2.5 rounded-sm" style={{ background: series.color }} />
              {series.label}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A chart with its one-sentence summary and a table of the same figures behind a toggle. */
function ChartCard<Row>({
  title,
  summary,
  rows,
  columns,
  chart,
  legend,
}: {
  title: string;
  summary: string;
  rows: Row[];
  columns: Column<Row>[];
  chart: Draw;
  /** The series' colours, for a chart of more than one. */
  legend?: Series[];
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
          <SizedChart draw={chart} legend={legend} />
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
      summary={`By ${formatMonth(last.month)}, ${money(last.released)} released, of which ${money(last.settled)} settled by the custodian.`}
      rows={points}
      columns={[
        { label: "Month", value: (p) => formatMonth(p.month) },
        { label: "Released", value: (p) => money(p.released) },
        { label: "Settled", value: (p) => money(p.settled) },
      ]}
      legend={[
        { label: "Released", color: COLORS.released },
        { label: "Settled", color: COLORS.settled },
      ]}
      chart={({ pointed, ...size }) => (
        <AreaChart {...size} accessibilityLayer={false} data={points} margin={{ left: 4, right: 8, top: 8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          {monthAxis(points.length, size.width)}
          <YAxis interval={0} tickFormatter={(v: number) => formatMoneyCompact(v, currency)} fontSize={12} width={64} />
          {pointed && <Tooltip labelFormatter={(m) => formatMonth(String(m))} formatter={(v) => money(Number(v))} />}
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
      )}
    />
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
        { label: "Month", value: (p) => formatMonth(p.month) },
        { label: "Pending", value: (p) => String(p.pending) },
        { label: "In verification", value: (p) => String(p.inVerification) },
        { label: "Verified", value: (p) => String(p.verified) },
        { label: "Rejected", value: (p) => String(p.rejected) },
        { label: "Delayed", value: (p) => String(p.delayed) },
      ]}
      legend={[
        { label: "Verified", color: COLORS.verified },
        { label: "In verification", color: COLORS.inVerification },
        { label: "Pending", color: COLORS.pending },
        { label: "Rejected", color: COLORS.rejected },
        { label: "Delayed", color: COLORS.delayed },
      ]}
      chart={({ pointed, ...size }) => (
        <BarChart {...size} accessibilityLayer={false} data={points} margin={{ left: 4, right: 8, top: 8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          {monthAxis(points.length, size.width)}
          <YAxis interval={0} allowDecimals={false} tickFormatter={formatCountCompact} fontSize={12} width={44} />
          {pointed && <Tooltip labelFormatter={(m) => formatMonth(String(m))} />}
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
      )}
    />
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
          : `${money(total)} due for verification in the next 12 months; the most in ${formatMonth(busiest.month)} (${money(busiest.amount)}).`
      }
      rows={points}
      columns={[
        { label: "Month", value: (p) => formatMonth(p.month) },
        { label: "Capital due", value: (p) => money(p.amount) },
      ]}
      chart={({ pointed, ...size }) => (
        <BarChart {...size} accessibilityLayer={false} data={points} margin={{ left: 4, right: 8, top: 8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          {monthAxis(points.length, size.width)}
          <YAxis interval={0} tickFormatter={(v: number) => formatMoneyCompact(v, currency)} fontSize={12} width={64} />
          {pointed && <Tooltip labelFormatter={(m) => formatMonth(String(m))} formatter={(v) => money(Number(v))} />}
          <Bar isAnimationActive={false} dataKey="amount" name="Capital due" fill={COLORS.released} />
        </BarChart>
      )}
    />
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
      chart={({ pointed, ...size }) => (
        <BarChart {...size} accessibilityLayer={false} data={buckets} margin={{ left: 4, right: 8, top: 8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="bucket" fontSize={12} interval={0} angle={-20} textAnchor="end" height={48} />
          <YAxis interval={0} allowDecimals={false} tickFormatter={formatCountCompact} fontSize={12} width={44} />
          {pointed && <Tooltip />}
          <Bar isAnimationActive={false} dataKey="count" name="Decisions" fill={COLORS.settled} />
        </BarChart>
      )}
    />
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
