import Decimal from "decimal.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_CAPITAL } from "../src/constants";
import { fromCents, shareOf, shareOfCents, subtractMoney, sumMoney, toCents } from "../src/money";

/** Exact decimal arithmetic, independent of the implementation: the share, rounded down to the cent. */
function exactShare(amount: string, share: string): string {
  return new Decimal(amount).mul(share).div(100).toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed(2);
}

/** An amount as the API receives it (a JSON number with at most two decimals) and as decimal text. */
const amounts = fc.integer({ min: 1, max: MAX_CAPITAL * 100 }).map((cents) => ({
  number: Number(new Decimal(cents).div(100).toString()),
  text: new Decimal(cents).div(100).toFixed(2),
}));
const shares = fc.integer({ min: 100, max: 10_000 }).map((basisPoints) => ({
  number: Number(new Decimal(basisPoints).div(100).toString()),
  text: new Decimal(basisPoints).div(100).toString(),
}));

describe("money in integer cents", () => {
  it("takes the share the float formula missed: 25 % of 2.32 is 0.58", () => {
    expect(Math.floor(2.32 * 25) / 100).toBe(0.57);
    expect(shareOf(2.32, 25)).toBe(0.58);
    expect(shareOfCents(232, 25)).toBe(58);
  });

  it("computes every share exactly as decimal arithmetic does, over the full amount range", { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(amounts, shares, (amount, share) => {
        expect(shareOf(amount.number, share.number).toFixed(2)).toBe(exactShare(amount.text, share.text));
      }),
      { numRuns: 10_000 },
    );
  });

  it("never releases more than the open amount, and 100 % is all of it", () => {
    fc.assert(
      fc.property(amounts, shares, (amount, share) => {
        const cents = toCents(amount.number);
        expect(shareOfCents(cents, share.number)).toBeLessThanOrEqual(cents);
        expect(shareOfCents(cents, 100)).toBe(cents);
      }),
    );
  });

  it("round-trips amounts and subtracts and sums without float drift", () => {
    fc.assert(
      fc.property(amounts, amounts, (a, b) => {
        expect(fromCents(toCents(a.number))).toBe(a.number);
        expect(subtractMoney(a.number, b.number).toFixed(2)).toBe(new Decimal(a.text).minus(b.text).toFixed(2));
        expect(sumMoney([a.number, b.number]).toFixed(2)).toBe(new Decimal(a.text).plus(b.text).toFixed(2));
      }),
    );
    expect(subtractMoney(0.3, 0.1)).toBe(0.2);
    expect(sumMoney([0.1, 0.2])).toBe(0.3);
  });
});
