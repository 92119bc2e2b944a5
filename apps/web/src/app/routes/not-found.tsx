import { useEffect } from "react";
import { Link, useLocation } from "react-router";

export default function NotFoundPage() {
  const location = useLocation();
  useEffect(() => {
    console.error("404 Error: User attempted to access non-existent route:", location.pathname);
  }, [location.pathname]);
  useEffect(() => {
    document.title = "Page not found · Tranche";
  }, []);
  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <div className="text-center">
        <h1 className="text-6xl font-bold text-slate-900">404</h1>
        <p className="mt-4 text-xl text-slate-600">Oops! Page not found</p>
        <Link
          to="/"
          className="mt-6 inline-block font-medium text-blue-700 underline underline-offset-4 hover:text-blue-900"
        >
          Return to Home
        </Link>
      </div>
    </main>
  );
}
