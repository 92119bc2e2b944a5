import { Link } from "react-router";

// Plain class strings here, not cn(): this file is part of every page's first load (bench/public-site.ts).
export function Logo({ className = "", inverted = false }: { className?: string; inverted?: boolean }) {
  return (
    <Link
      to="/"
      className={`inline-flex items-center gap-2 rounded-md font-semibold tracking-tight ${className}`}
      aria-label="Tranche home"
    >
      <svg viewBox="0 0 32 32" className="size-7" aria-hidden>
        <rect width="32" height="32" rx="7" fill={inverted ? "#ffffff" : "#0f1f3d"} />
        <path d="M8 22h4v-6H8zm6 0h4V12h-4zm6 0h4V8h-4z" fill={inverted ? "#047857" : "#34d399"} />
      </svg>
      <span className={`text-lg ${inverted ? "text-white" : "text-slate-900"}`}>Tranche</span>
    </Link>
  );
}
