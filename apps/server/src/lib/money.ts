/** numeric(20,2) arrives from the drivers as a string; the API speaks JSON numbers. */
export function toMoney(value: string | number | null | undefined): number {
  if (value === null || value === undefined) return 0;
  return Math.round(Number(value) * 100) / 100;
}

/** Cents-exact string for writing numeric(20,2). */
export function moneyParam(value: number): string {
  return (Math.round(value * 100) / 100).toFixed(2);
}
