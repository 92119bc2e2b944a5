// The landing page's impact calculator (docs/domain.md "Figures and formats"). Plain numbers, no dependencies, so
// the landing page can import this file alone (not the package index, which brings zod).

export const CALCULATOR = {
  capital: { min: 100, max: 5000, step: 50, default: 500 },
  investments: { min: 5, max: 100, step: 1, default: 12 },
  rate: 0.15,
} as const;

export const CALCULATOR_PROFILES = [
  { key: "conservative", label: "Conservative", factor: 1.2 },
  { key: "institutional", label: "Institutional", factor: 1.0 },
  { key: "growth", label: "Growth", factor: 0.8 },
] as const;
export type CalculatorProfile = (typeof CALCULATOR_PROFILES)[number]["key"];
export const DEFAULT_CALCULATOR_PROFILE: CalculatorProfile = "institutional";

/** How the annual value divides: 40% risk reduction, 35% performance enhancement, 25% operational efficiency. */
export const CALCULATOR_SPLIT = [
  { key: "riskReduction", label: "Risk reduction", share: 0.4 },
  { key: "performance", label: "Performance enhancement", share: 0.35 },
  { key: "efficiency", label: "Operational efficiency", share: 0.25 },
] as const;
export type CalculatorSplitKey = (typeof CALCULATOR_SPLIT)[number]["key"];

export interface ImpactInput {
  /** Capital under management, $M. */
  capital: number;
  /** Number of investments. */
  investments: number;
  profile: CalculatorProfile;
}

export interface ImpactResult {
  /** Annual value in $M, rounded to one decimal. */
  annualValue: number;
  /** The annual value's parts in $M, each rounded to one decimal. */
  split: Record<CalculatorSplitKey, number>;
}

const oneDecimal = (n: number) => Math.round(n * 10) / 10;

export function profileFactor(profile: CalculatorProfile): number {
  const found = CALCULATOR_PROFILES.find((p) => p.key === profile);
  if (!found) throw new RangeError(`Unknown calculator profile: ${profile}`);
  return found.factor;
}

/** Keeps a slider value inside its range and on its step (what an input type=range would do). */
export function clampToSlider(value: number, slider: { min: number; max: number; step: number }): number {
  if (!Number.isFinite(value)) return slider.min;
  const stepped = slider.min + Math.round((value - slider.min) / slider.step) * slider.step;
  return Math.min(slider.max, Math.max(slider.min, stepped));
}

/** Annual value ($M) = capital × investments × 0.15 × profile factor, to one decimal, split 40/35/25. */
export function calculateImpact(input: ImpactInput): ImpactResult {
  const raw = input.capital * input.investments * CALCULATOR.rate * profileFactor(input.profile);
  const split = Object.fromEntries(CALCULATOR_SPLIT.map((part) => [part.key, oneDecimal(raw * part.share)])) as Record<
    CalculatorSplitKey,
    number
  >;
  return { annualValue: oneDecimal(raw), split };
}

/**
 * "12,500": digits grouped by thousands with commas, as en-US writes them. Written out rather than through Intl: the
 * landing page formats while it hydrates, and a page's first Intl call loads locale data in one long task (about
 * 40 ms on a phone-class CPU), which its Lighthouse budget counts as blocking time. Equal to Intl's en-US answer
 * (test/calculator.test.ts).
 */
export function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** "900.0": always one decimal, thousands separated (US format); the calculator's values are never negative. */
export function formatImpact(valueInMillions: number): string {
  const [whole, tenths] = valueInMillions.toFixed(1).split(".");
  return `${groupThousands(whole)}.${tenths}`;
}
