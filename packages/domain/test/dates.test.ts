// "In the past" means past everywhere on earth: the server does not know its caller's time zone, so a date that is
// still today in some zone (UTC−12 … UTC+14) is not past. Fixed clocks, no global time zone change.
import { describe, expect, it } from "vitest";
import { earliestTodayIso, isPastEverywhere } from "../src";

describe("earliestTodayIso", () => {
  it("is the date in UTC−12", () => {
    expect(earliestTodayIso(new Date("2026-05-02T11:59:59Z"))).toBe("2026-05-01");
    expect(earliestTodayIso(new Date("2026-05-02T12:00:00Z"))).toBe("2026-05-02");
    expect(earliestTodayIso(new Date("2026-01-01T03:00:00Z"))).toBe("2025-12-31");
  });
});

describe("isPastEverywhere", () => {
  it("keeps a date that is today in some time zone out of the past", () => {
    // 20:00 on 1 May in New York (UTC−4) is already 2 May in UTC: the New Yorker's today is not past.
    const eveningInNewYork = new Date("2026-05-02T00:00:00Z");
    expect(isPastEverywhere("2026-05-01", eveningInNewYork)).toBe(false);
    // 23:00 on 1 May at UTC−12 is the last hour anywhere calls 1 May today.
    expect(isPastEverywhere("2026-05-01", new Date("2026-05-02T11:00:00Z"))).toBe(false);
    // An hour later 1 May is over everywhere.
    expect(isPastEverywhere("2026-05-01", new Date("2026-05-02T12:00:00Z"))).toBe(true);
    // In Kiribati (UTC+14) it is already 3 May at 10:00 UTC on 2 May: that date is not past either.
    expect(isPastEverywhere("2026-05-03", new Date("2026-05-02T10:00:00Z"))).toBe(false);
  });
});
