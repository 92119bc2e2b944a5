import { SearchIcon } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { Input } from "@/components/ui/input";

/** A list's search box: the term is sent (onSearch) a moment after typing stops, not on every key. */
export function ListSearch({
  label,
  placeholder = label,
  value,
  onSearch,
}: {
  label: string;
  /** What the empty box shows (the label, unless it says more). */
  placeholder?: string;
  value: string;
  onSearch: (term: string) => void;
}) {
  const [typed, setTyped] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => {
      if (typed.trim() !== value) onSearch(typed.trim());
    }, 300);
    return () => clearTimeout(timer);
  }, [typed, value, onSearch]);
  const id = useId();
  return (
    <div className="relative min-w-0 flex-1 basis-56">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <SearchIcon className="absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500" aria-hidden />
      <Input
        id={id}
        type="search"
        className="pl-9"
        placeholder={placeholder}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
      />
    </div>
  );
}
