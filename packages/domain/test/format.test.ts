import { describe, expect, it } from "vitest";
import {
  dueCountdown,
  formatCount,
  formatCountCompact,
  formatDate,
  formatDateTime,
  formatFileSize,
  formatLongDate,
  formatMoney,
  formatMoneyCompact,
  formatMonth,
  formatStatus,
} from "../src/index";

describe("formatMoney (US format, no decimals for whole amounts, with currency)", () => {
  it("formats each currency", () => {
    expect(formatMoney(12_000_000)).toBe("$12,000,000");
    expect(formatMoney(8_500_000, "EUR")).toBe("€8,500,000");
    expect(formatMoney(5_000_000, "GBP")).toBe("£5,000,000");
    // An amount with cents shows them: 12.35 never reads as "$12".
    expect(formatMoney(1234.5)).toBe("$1,234.50");
    expect(formatMoney(12.35)).toBe("$12.35");
    expect(formatMoney(-0.01, "EUR")).toBe("-€0.01");
    expect(formatMoney(0)).toBe("$0");
  });

  it("writes compact amounts for cards and chart axes, in each currency", () => {
    expect(formatMoneyCompact(9_500_000)).toBe("$9.5M");
    expect(formatMoneyCompact(820_000, "EUR")).toBe("€820K");
    expect(formatMoneyCompact(9_500_000)).toBe("$9.5M"); // the formatter is kept, the figure is not
    expect(formatMoneyCompact(0, "GBP")).toBe("£0");
  });
});

describe("counts", () => {
  it("group thousands as the lists do, and shorten on a chart's axis", () => {
    expect(formatCount(10_005)).toBe("10,005");
    expect(formatCount(7)).toBe("7");
    expect(formatCountCompact(120_000)).toBe("120K");
    expect(formatCountCompact(1_500)).toBe("1.5K");
    expect(formatCountCompact(40)).toBe("40");
  });
});

describe("dates", () => {
  it("formats card dates as 'MMM d, yyyy' and milestone dates in the long form, without zone drift", () => {
    expect(formatDate("2025-01-05")).toBe("Jan 5, 2025");
    expect(formatDate("2025-12-31")).toBe("Dec 31, 2025");
    expect(formatLongDate("2025-01-05")).toBe("January 5, 2025");
    expect(formatMonth("2026-11")).toBe("Nov 2026");
    expect(formatMonth("2027-01")).toBe("Jan 2027");
  });

  it("counts down to a due date", () => {
    const now = new Date(2025, 5, 15, 18, 30);
    expect(dueCountdown("2025-06-14", now)).toBe("Overdue");
    expect(dueCountdown("2025-06-15", now)).toBe("Due today");
    expect(dueCountdown("2025-06-16", now)).toBe("1 day remaining");
    expect(dueCountdown("2025-06-25", now)).toBe("10 days remaining");
  });
});

describe("formatStatus", () => {
  it("replaces underscores and capitalises each word", () => {
    expect(formatStatus("pending_verification")).toBe("Pending Verification");
    expect(formatStatus("in_verification")).toBe("In Verification");
    expect(formatStatus("at_risk")).toBe("At Risk");
  });
});

describe("sizes and times", () => {
  it("shows small files in bytes or KB and large ones in MB, never 0.00 MB", () => {
    expect(formatFileSize(0)).toBe("0 B");
    expect(formatFileSize(812)).toBe("812 B");
    expect(formatFileSize(2048)).toBe("2.00 KB");
    expect(formatFileSize(45_300)).toBe("44.2 KB");
    expect(formatFileSize(512_000)).toBe("500 KB");
    expect(formatFileSize(3_407_872)).toBe("3.25 MB");
    expect(formatFileSize(25 * 1024 * 1024)).toBe("25.0 MB");
  });

  it("writes a date and time as 'MMM d, yyyy, h:mm AM/PM zone', in the viewer's time zone named", () => {
    const zone = (date: Date) =>
      new Intl.DateTimeFormat("en-US", { timeZoneName: "short" })
        .formatToParts(date)
        .find((part) => part.type === "timeZoneName")?.value;
    const evening = new Date(2026, 10, 22, 18, 55);
    const morning = new Date(2026, 0, 5, 9, 3);
    expect(zone(evening)).toBeTruthy();
    expect(formatDateTime(evening.toISOString())).toBe(`Nov 22, 2026, 6:55 PM ${zone(evening)}`);
    expect(formatDateTime(morning.toISOString())).toBe(`Jan 5, 2026, 9:03 AM ${zone(morning)}`);
  });
});
