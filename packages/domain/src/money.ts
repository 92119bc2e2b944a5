// Money is exact: amounts cross the API as JSON numbers with at most two decimals, and every calculation on them
// runs on integer cents (docs/domain.md "Money"). The largest amount, 100,000,000,000.00, is 10^13 cents: well
// inside a double's exact integers, so cents are plain numbers; a product of cents and basis points is not, and
// uses BigInt.

/** Whole cents of an amount given in currency units (at most two decimals; a third is rounded half away). */
export function toCents(amount: number): number {
  const cents = Math.round(Math.abs(amount) * 100);
  return amount < 0 ? -cents : cents;
}

/** The amount in currency units of a whole number of cents. */
export function fromCents(cents: number): number {
  return cents / 100;
}

/** A percentage with at most two decimals (e.g. 62.5) as basis points (6250). */
export function toBasisPoints(percent: number): number {
  return Math.round(percent * 100);
}

/**
 * The cents released by an agreed share (percent, at most two decimals) of `openCents`: rounded down to the
 * cent, so a release never exceeds what was agreed. 100 % is exactly the open amount.
 */
export function shareOfCents(openCents: number, sharePercent: number): number {
  const basisPoints = BigInt(toBasisPoints(sharePercent));
  return Number((BigInt(openCents) * basisPoints) / 10_000n);
}

/** The release amount for an agreed share (percent) of what is still open on a milestone, exact to the cent. */
export function shareOf(openAmount: number, sharePercent: number): number {
  return fromCents(shareOfCents(toCents(openAmount), sharePercent));
}

/** a − b, exact to the cent. */
export function subtractMoney(a: number, b: number): number {
  return fromCents(toCents(a) - toCents(b));
}

/** The sum of amounts, exact to the cent. */
export function sumMoney(amounts: readonly number[]): number {
  return fromCents(amounts.reduce((sum, a) => sum + toCents(a), 0));
}
