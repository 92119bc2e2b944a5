import { formatMoneyCompact, type MoneyTotal } from "@tranche/domain";

/** Totals per currency, never converted: one line each, or a zero in USD when there is nothing. */
export function MoneyLines({ totals }: { totals: MoneyTotal[] }) {
  if (totals.length === 0) return <span>{formatMoneyCompact(0, "USD")}</span>;
  return (
    <span className="flex flex-wrap gap-x-3">
      {totals.map((t) => (
        <span key={t.currency}>{formatMoneyCompact(t.amount, t.currency)}</span>
      ))}
    </span>
  );
}
