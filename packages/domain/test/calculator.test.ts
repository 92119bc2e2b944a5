import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CALCULATOR,
  CALCULATOR_PROFILES,
  calculateImpact,
  clampToSlider,
  DEFAULT_CALCULATOR_PROFILE,
  formatImpact,
  groupThousands,
  profileFactor,
} from "../src/calculator";

describe("impact calculator", () => {
  it("has the sliders' ranges, steps and defaults, and institutional as the default profile", () => {
    expect(CALCULATOR.capital).toEqual({ min: 100, max: 5000, step: 50, default: 500 });
    expect(CALCULATOR.investments).toEqual({ min: 5, max: 100, step: 1, default: 12 });
    expect(DEFAULT_CALCULATOR_PROFILE).toBe("institutional");
    expect(CALCULATOR_PROFILES.map((p) => [p.key, p.factor])).toEqual([
      ["conservative", 1.2],
      ["institutional", 1.0],
      ["growth", 0.8],
    ]);
  });

  it("gives 500 × 12 × 0.15 × 1.0 = 900.0 for the defaults, split 40/35/25", () => {
    const result = calculateImpact({ capital: 500, investments: 12, profile: "institutional" });
    expect(result.annualValue).toBe(900);
    expect(formatImpact(result.annualValue)).toBe("900.0");
    expect(result.split).toEqual({ riskReduction: 360, performance: 315, efficiency: 225 });
  });

  it("applies the profile factor", () => {
    expect(calculateImpact({ capital: 500, investments: 12, profile: "conservative" }).annualValue).toBe(1080);
    expect(calculateImpact({ capital: 500, investments: 12, profile: "growth" }).annualValue).toBe(720);
    expect(profileFactor("growth")).toBe(0.8);
  });

  it("rounds to one decimal and formats in US style", () => {
    // 150 × 7 × 0.15 × 0.8 = 126
    expect(calculateImpact({ capital: 150, investments: 7, profile: "growth" }).annualValue).toBe(126);
    // 100 × 5 × 0.15 × 1.2 = 90; 40% → 36, 35% → 31.5, 25% → 22.5
    expect(calculateImpact({ capital: 100, investments: 5, profile: "conservative" }).split).toEqual({
      riskReduction: 36,
      performance: 31.5,
      efficiency: 22.5,
    });
    // the largest case: 5000 × 100 × 0.15 × 1.2 = 90,000.0
    expect(
      formatImpact(calculateImpact({ capital: 5000, investments: 100, profile: "conservative" }).annualValue),
    ).toBe("90,000.0");
    expect(formatImpact(12.25)).toBe("12.3");
  });

  it("formats as Intl's en-US does, without calling Intl", () => {
    const us = (value: number, digits: number) =>
      value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e9, noNaN: true }), (value) => {
        expect(formatImpact(value)).toBe(us(value, 1));
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (value) => {
        expect(groupThousands(String(value))).toBe(us(value, 0));
      }),
    );
    expect(formatImpact(999.95)).toBe("1,000.0");
  });

  it("keeps every result on one decimal and the parts adding up to the whole within rounding", () => {
    const capital = fc.integer({ min: 0, max: (5000 - 100) / 50 }).map((i) => 100 + i * 50);
    const investments = fc.integer({ min: 5, max: 100 });
    const profile = fc.constantFrom(...CALCULATOR_PROFILES.map((p) => p.key));
    fc.assert(
      fc.property(capital, investments, profile, (c, n, p) => {
        const { annualValue, split } = calculateImpact({ capital: c, investments: n, profile: p });
        expect(Math.round(annualValue * 10)).toBeCloseTo(annualValue * 10, 6);
        const parts = split.riskReduction + split.performance + split.efficiency;
        expect(Math.abs(parts - annualValue)).toBeLessThanOrEqual(0.15 + 1e-9);
      }),
    );
  });

  it("clamps slider values to their range and step", () => {
    expect(clampToSlider(90, CALCULATOR.capital)).toBe(100);
    expect(clampToSlider(5001, CALCULATOR.capital)).toBe(5000);
    expect(clampToSlider(520, CALCULATOR.capital)).toBe(500);
    expect(clampToSlider(530, CALCULATOR.capital)).toBe(550);
    expect(clampToSlider(Number.NaN, CALCULATOR.investments)).toBe(5);
  });
});
