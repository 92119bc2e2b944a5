import { formatDate } from "@tranche/domain";

/** 'Jan 5, 2025, 14:03' in the viewer's time zone. */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  const time = d.toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit", hour12: false });
  return `${formatDate(iso)}, ${time}`;
}
