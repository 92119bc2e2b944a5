/** An instant to the second, with its time zone: when a delivery was tried, until when a secret signs. */
const instant = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "long" });

export const formatInstant = (iso: string) => instant.format(new Date(iso));
