import { useId } from "react";
import { NativeSelect } from "@/components/ui/input";

/** A labelled select over a list (a filter or a sort), its value kept by the page (in the URL). */
export function SelectFilter<V extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2 text-sm text-muted-foreground">
      <label htmlFor={id}>{label}</label>
      <NativeSelect id={id} className="h-10 w-auto" value={value} onChange={(e) => onChange(e.target.value as V)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}
