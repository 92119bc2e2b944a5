import {
  CALCULATOR,
  CALCULATOR_PROFILES,
  CALCULATOR_SPLIT,
  type CalculatorProfile,
  calculateImpact,
  DEFAULT_CALCULATOR_PROFILE,
  formatImpact,
  groupThousands,
} from "@tranche/domain/calculator";
import { useId, useState } from "react";

const SPLIT_COLOURS = {
  riskReduction: "bg-emerald-600",
  performance: "bg-sky-600",
  efficiency: "bg-amber-500",
} as const;

/** The landing page's impact calculator (docs/domain.md "Figures and formats"); the maths is the domain's. */
export function ImpactCalculator() {
  const [capital, setCapital] = useState<number>(CALCULATOR.capital.default);
  const [investments, setInvestments] = useState<number>(CALCULATOR.investments.default);
  const [profile, setProfile] = useState<CalculatorProfile>(DEFAULT_CALCULATOR_PROFILE);
  const id = useId();
  const result = calculateImpact({ capital, investments, profile });

  return (
    <div className="grid gap-8 rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 lg:grid-cols-2">
      <form className="grid content-start gap-7" onSubmit={(event) => event.preventDefault()}>
        <Slider
          id={`${id}-capital`}
          label="Capital under management"
          display={`$${groupThousands(String(capital))}M`}
          value={capital}
          onChange={setCapital}
          {...CALCULATOR.capital}
        />
        <Slider
          id={`${id}-investments`}
          label="Number of investments"
          display={String(investments)}
          value={investments}
          onChange={setInvestments}
          {...CALCULATOR.investments}
        />
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Portfolio profile</legend>
          <div className="mt-3 grid grid-cols-1 gap-2 min-[340px]:grid-cols-3">
            {CALCULATOR_PROFILES.map((option) => (
              <label
                key={option.key}
                className="cursor-pointer rounded-md border border-slate-300 px-1 py-2.5 text-center text-xs font-medium min-[380px]:text-[13px] sm:px-3 sm:text-sm text-slate-700 has-checked:border-navy-900 has-checked:bg-navy-900 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-ring"
              >
                <input
                  type="radio"
                  name={`${id}-profile`}
                  value={option.key}
                  checked={profile === option.key}
                  onChange={() => setProfile(option.key)}
                  className="sr-only"
                />
                {option.label}
                <span className="block text-xs font-normal opacity-80">× {option.factor.toFixed(1)}</span>
              </label>
            ))}
          </div>
        </fieldset>
      </form>

      <div className="rounded-lg bg-navy-950 p-6 text-white sm:p-8">
        <p className="text-sm text-slate-300" id={`${id}-result-label`}>
          Estimated annual value of verified deployment
        </p>
        <p className="mt-2 text-4xl font-semibold tracking-tight sm:text-5xl">
          <output aria-labelledby={`${id}-result-label`} aria-live="polite" data-testid="impact-value">
            ${formatImpact(result.annualValue)}M
          </output>
        </p>
        <ul className="mt-6 grid gap-4">
          {CALCULATOR_SPLIT.map((part) => (
            <li key={part.key}>
              <div className="flex items-baseline justify-between gap-4 text-sm">
                <span className="text-slate-200">
                  {part.label} <span className="text-slate-400">({Math.round(part.share * 100)}%)</span>
                </span>
                <span className="shrink-0 whitespace-nowrap font-semibold tabular-nums">
                  ${formatImpact(result.split[part.key])}M
                </span>
              </div>
              <div className="mt-2 h-2 rounded-full bg-white/10" aria-hidden>
                <div
                  className={`h-2 rounded-full ${SPLIT_COLOURS[part.key]}`}
                  style={{ width: `${part.share * 100}%` }}
                />
              </div>
            </li>
          ))}
        </ul>
        <p className="mt-6 text-xs leading-relaxed text-slate-400">
          Illustrative model: capital ($M) × number of investments × 0.15 × profile factor (conservative 1.2,
          institutional 1.0, growth 0.8). It is not a forecast of returns.
        </p>
      </div>
    </div>
  );
}

function Slider({
  id,
  label,
  display,
  value,
  onChange,
  min,
  max,
  step,
}: {
  id: string;
  label: string;
  display: string;
  value: number;
  onChange: (value: number) => void;
  min: number;
  max: number;
  step: number;
}) {
  return (
    <div>
      <div className="flex items-baseline justify-between gap-4">
        <label htmlFor={id} className="text-sm font-medium text-slate-800">
          {label}
        </label>
        <span className="shrink-0 whitespace-nowrap text-lg font-semibold tabular-nums text-slate-900" aria-hidden>
          {display}
        </span>
      </div>
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        aria-valuetext={display}
        onChange={(event) => onChange(Number(event.target.value))}
        className="mt-3 h-2 w-full cursor-pointer accent-emerald-700"
      />
      <div className="mt-1 flex justify-between text-xs text-slate-600" aria-hidden>
        <span>{groupThousands(String(min))}</span>
        <span>{groupThousands(String(max))}</span>
      </div>
    </div>
  );
}
