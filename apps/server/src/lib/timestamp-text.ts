// Checks for date and timestamp text that arrives from a client inside a cursor, before it reaches a ::date or
// ::timestamptz cast: whatever PostgreSQL would refuse (year 0, 2026-02-31, 25:61, offset +99) must be a 400, not a 500.

/** Years a cursor may name: PostgreSQL has no year 0, and no stored row is older than the Common Era or 4-digit. */
const MIN_YEAR = 1;
const MAX_YEAR = 9999;
/** Real time zone offsets lie within UTC−12 … UTC+14; PostgreSQL refuses anything past ±15:59. */
const MAX_OFFSET_MINUTES = 14 * 60;

/** A real calendar day: the year in range, the month 1–12, the day within that month (leap years counted). */
export function isRealDay(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || year < MIN_YEAR || year > MAX_YEAR) return false;
  // setUTCFullYear, not Date.UTC, which reads years 0–99 as 1900–1999.
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  return at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === day;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?(?:Z|([+-])(\d{2})(?::?(\d{2}))?)?$/;

/** "YYYY-MM-DD" naming a real day in range. */
export function isRealDateText(text: string): boolean {
  const m = DATE.exec(text);
  return m !== null && isRealDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

/**
 * A timestamp as PostgreSQL prints one (`2026-05-01 10:00:00.123456+00`) or ISO 8601 (`…T…Z`): a real day in range,
 * a real time of day, and a real offset (at most 14 hours, minutes below 60).
 */
export function isRealTimestampText(text: string): boolean {
  const m = TIMESTAMP.exec(text);
  if (!m) return false;
  const [, y, mo, d, hh, mi, ss, sign, oh, om] = m;
  if (!isRealDay(Number(y), Number(mo), Number(d))) return false;
  if (Number(hh) > 23 || Number(mi) > 59 || Number(ss) > 59) return false;
  if (sign) {
    const minutes = Number(om ?? 0);
    if (minutes > 59 || Number(oh) * 60 + minutes > MAX_OFFSET_MINUTES) return false;
  }
  return true;
}
