import { Link, useLocation } from "react-router";

export default function PlaceholderPage() {
  const { pathname } = useLocation();
  const title =
    pathname === "/" ? "Capital released only when milestones are verified" : pathname.slice(1).replace(/[-/]/g, " ");
  return (
    <main id="main" className="mx-auto max-w-4xl px-4 py-20">
      <h1 className="text-4xl font-semibold capitalize tracking-tight text-slate-900">{title}</h1>
      <p className="mt-4 text-lg text-slate-600">
        Tranche ties every release of project capital to an independently verified milestone.
      </p>
      <Link to="/login" className="mt-8 inline-block rounded-md bg-primary px-5 py-3 font-medium text-white">
        Get Started
      </Link>
    </main>
  );
}
