import type { Currency } from "./constants";

const moneyFormatters = new Map<string, Intl.NumberFormat>();

/**
 * US format with the currency symbol: no decimals for a whole amount, the cents when it has them, so
 * 12.35 never reads as "$12".
 */
export function formatMoney(amount: number, currency: Currency | string = "USD"): string {
  const cents = Math.round(Math.abs(amount) * 100) % 100 !== 0;
  const key = `${currency}:${cents ? 2 : 0}`;
  let formatter = moneyFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat("en-US", {
      style: "currency",
      currency,
      minimumFractionDigits: cents ? 2 : 0,
      maximumFractionDigits: cents ? 2 : 0,
    });
    moneyFormatters.set(key, formatter);
  }
  return formatter.format(amount);
}

const compactFormatters = new Map<string, Intl.NumberFormat>();

/** Compact money for stat cards and chart axes: $24.5M, $820K. */
export function formatMoneyCompact(amount: number, currency: Currency | string = "USD"): string {
  let formatter = compactFormatters.get(currency);
  if (!formatter) {
    // Building a formatter costs far more than using one: charts format every tick on every render.
    formatter = new Intl.NumberFormat("en-US", {
      style: "currency",
      currency,
      notation: "compact",
      minimumFractionDigits: 0,
      maximumFractionDigits: 1,
    });
    compactFormatters.set(currency, formatter);
  }
  return formatter.format(amount);
}

const countFormat = new Intl.NumberFormat("en-US");
const compactCountFormat = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

/** A count as the lists print it: 10,005. */
export function formatCount(count: number): string {
  return countFormat.format(count);
}

/** A count on a chart's axis, as short as its money: 120K. */
export function formatCountCompact(count: number): string {
  return compactCountFormat.format(count);
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** Month names in English, January first. */
export const LONG_MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** Splits a 'YYYY-MM-DD' (or ISO timestamp) without time-zone drift for plain dates. */
function parts(date: string): { y: number; m: number; d: number } {
  if (/^\d{4}-\d{2}-\d{2}$/.test(date)) {
    const [y, m, d] = date.split("-").map(Number);
    return { y, m: m - 1, d };
  }
  const parsed = new Date(date);
  return { y: parsed.getFullYear(), m: parsed.getMonth(), d: parsed.getDate() };
}

/** 'MMM d, yyyy' as on project cards: 'Jan 5, 2025'. */
export function formatDate(date: string): string {
  const { y, m, d } = parts(date);
  return `${MONTHS[m]} ${d}, ${y}`;
}

/** en-US long form used on milestones: 'January 5, 2025'. */
/** '2026-11' → 'Nov 2026'. */
export function formatMonth(month: string): string {
  const [y, m] = month.split("-").map(Number);
  return `${MONTHS[m - 1]} ${y}`;
}

export function formatLongDate(date: string): string {
  const { y, m, d } = parts(date);
  return `${LONG_MONTHS[m]} ${d}, ${y}`;
}

/** A status for display: underscores to spaces, each word capitalised. */
export function formatStatus(status: string): string {
  return status
    .split("_")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

/** Today's date as 'YYYY-MM-DD' in local time (the browser's: what the person at the screen calls today). */
export function todayIso(now: Date = new Date()): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, "0");
  const d = String(now.getDate()).padStart(2, "0");
  return `${y}-${m}-${d}`;
}

/** The westernmost time zone on earth, UTC−12: the last place where a calendar date is still today. */
const WESTERNMOST_OFFSET_MS = 12 * 3_600_000;

/**
 * The earliest calendar date that is still today somewhere on earth (today in UTC−12), as 'YYYY-MM-DD'. The server
 * does not know its caller's time zone, so a date is "in the past" only when it is past everywhere: before this.
 * Milestones past due (a project at risk) follow the same rule.
 */
export function earliestTodayIso(now: Date = new Date()): string {
  return new Date(now.getTime() - WESTERNMOST_OFFSET_MS).toISOString().slice(0, 10);
}

/** Whether a 'YYYY-MM-DD' date is past everywhere on earth (no time zone from UTC−12 to UTC+14 still calls it today). */
export function isPastEverywhere(date: string, now: Date = new Date()): boolean {
  return date < earliestTodayIso(now);
}

/** Whole days from today to a 'YYYY-MM-DD' date; negative when past. */
export function daysUntil(date: string, now: Date = new Date()): number {
  const { y, m, d } = parts(date);
  const due = Date.UTC(y, m, d);
  const today = Date.UTC(now.getFullYear(), now.getMonth(), now.getDate());
  return Math.round((due - today) / 86_400_000);
}

/** A due date's countdown: 'Overdue', 'Due today' or 'N days remaining'. */
export function dueCountdown(date: string, now: Date = new Date()): string {
  const days = daysUntil(date, now);
  if (days < 0) return "Overdue";
  if (days === 0) return "Due today";
  return `${days} ${days === 1 ? "day" : "days"} remaining`;
}

/** The part of the e-mail before the @, else 'User' (the sidebar's label). */
export function displayLabel(email: string | null | undefined): string {
  const local = email?.split("@")[0];
  return local ? local : "User";
}

/** Dashboard welcome: name, else e-mail local part, else 'User'. */
export function welcomeName(user: { name?: string | null; email?: string | null } | null | undefined): string {
  if (user?.name?.trim()) return user.name.trim();
  return displayLabel(user?.email);
}

/**
 * 'Nov 22, 2026, 6:55 PM CET' in the viewer's time zone, named: the one date-and-time format of the app. The zone
 * is said because certificates and /verify give their times in UTC, and a time without its zone cannot be compared.
 */
export function formatDateTime(iso: string): string {
  timeFormatter ??= new Intl.DateTimeFormat("en-US", {
    hour: "numeric",
    minute: "2-digit",
    hour12: true,
    timeZoneName: "short",
  });
  return `${formatDate(iso)}, ${timeFormatter.format(new Date(iso))}`;
}
let timeFormatter: Intl.DateTimeFormat | undefined;

/** '512 B', '12.4 KB', '3.25 MB': binary units, with fewer decimals as the figure grows. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, "KB"] : [bytes / (1024 * 1024), "MB"];
  const digits = value < 10 ? 2 : value < 100 ? 1 : 0;
  return `${value.toFixed(digits)} ${unit}`;
}
