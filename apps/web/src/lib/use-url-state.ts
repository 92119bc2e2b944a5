import { useCallback } from "react";
import { useSearchParams } from "react-router";

/**
 * A list's view (filters, sort, search) kept in the URL, so a link reproduces it. Values equal to their default
 * are left out of the URL; setting a value replaces the history entry (typing a search adds no history).
 */
export function useUrlState<K extends string>(defaults: Record<K, string>) {
  const [params, setParams] = useSearchParams();
  const values = Object.fromEntries(
    (Object.keys(defaults) as K[]).map((key) => [key, params.get(key) ?? defaults[key]]),
  ) as Record<K, string>;
  const defaultsKey = JSON.stringify(defaults);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the defaults are compared by value (a new literal each render)
  const set = useCallback(
    (patch: Partial<Record<K, string>>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(patch) as [K, string | undefined][]) {
            if (!value || value === defaults[key]) next.delete(key);
            else next.set(key, value);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams, defaultsKey],
  );
  return [values, set] as const;
}
