import { ChevronDownIcon, MenuIcon, XIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link, NavLink, Outlet, useLocation } from "react-router";
import { cn } from "@/lib/utils";
import { Logo } from "./brand";

const NAV = [
  { to: "/", label: "Home" },
  { to: "/features", label: "Features" },
  { to: "/pricing", label: "Pricing" },
  { to: "/about", label: "About" },
  { to: "/partners", label: "Partners" },
];
const PRODUCTS = [
  { to: "/features", label: "Verification Platform", text: "Independent checks before every release" },
  { to: "/institutional-partners", label: "Governance Infrastructure", text: "Rules, records and oversight for LPs" },
];

const linkClass = "rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-950";

export function PublicLayout() {
  return (
    <div className="flex min-h-screen flex-col bg-white">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <PublicHeader />
      <div className="flex-1">
        <Outlet />
      </div>
      <PublicFooter />
    </div>
  );
}

function ProductsMenu() {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (event instanceof KeyboardEvent ? event.key === "Escape" : !ref.current?.contains(event.target as Node))
        setOpen(false);
    };
    document.addEventListener("mousedown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("mousedown", close);
      document.removeEventListener("keydown", close);
    };
  }, [open]);
  return (
    <div ref={ref} className="relative">
      <button
        type="button"
        className={cn(linkClass, "inline-flex items-center gap-1")}
        aria-expanded={open}
        aria-haspopup="true"
        onClick={() => setOpen((v) => !v)}
      >
        Products <ChevronDownIcon className="size-4" aria-hidden />
      </button>
      {open ? (
        <ul className="absolute left-0 top-full z-40 mt-1 w-72 rounded-lg border bg-white p-2 shadow-lg">
          {PRODUCTS.map((item) => (
            <li key={item.label}>
              <Link to={item.to} className="block rounded-md p-3 hover:bg-slate-50" onClick={() => setOpen(false)}>
                <span className="block text-sm font-semibold text-slate-900">{item.label}</span>
                <span className="block text-xs text-slate-600">{item.text}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function PublicHeader() {
  return (
    <header className="sticky top-0 z-30 border-b bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
        <Logo />
        <nav aria-label="Main" className="hidden items-center gap-1 lg:flex">
          <NavLink to="/" end className={linkClass}>
            Home
          </NavLink>
          <NavLink to="/features" className={linkClass}>
            Features
          </NavLink>
          <ProductsMenu />
          {NAV.slice(2).map((item) => (
            <NavLink key={item.to} to={item.to} className={linkClass}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="hidden items-center gap-2 lg:flex">
          <Link to="/login" className={linkClass}>
            Login
          </Link>
          <Link
            to="/contact"
            className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-900 hover:bg-slate-50"
          >
            Request Demo
          </Link>
          <Link
            to="/login"
            className="rounded-md bg-primary px-4 py-2 text-sm font-medium text-white hover:bg-navy-800"
          >
            Get Started
          </Link>
        </div>
        <MobileDrawer />
      </div>
    </header>
  );
}

/** SPEC.md §2.2: on small screens a bottom drawer holds the navigation. */
function MobileDrawer() {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: close whenever the route changes
  useEffect(() => setOpen(false), [location.pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === "Escape" && setOpen(false);
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);
  const items = [
    ...NAV,
    { to: "/login", label: "Log in" },
    { to: "/contact", label: "Request Demo" },
    { to: "/login", label: "Get Started" },
  ];
  return (
    <div className="lg:hidden">
      <button
        type="button"
        className="inline-flex size-10 items-center justify-center rounded-md hover:bg-slate-100"
        aria-label="Open menu"
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        <MenuIcon className="size-6" aria-hidden />
      </button>
      {open ? (
        <div className="fixed inset-0 z-50">
          <button
            type="button"
            aria-label="Close menu"
            className="absolute inset-0 bg-slate-950/50"
            onClick={() => setOpen(false)}
          />
          <div
            role="dialog"
            aria-modal="true"
            aria-label="Menu"
            className="absolute inset-x-0 bottom-0 max-h-[85vh] overflow-y-auto rounded-t-2xl bg-white p-4 pb-8 shadow-2xl"
          >
            <div className="mb-2 flex items-center justify-between">
              <span className="text-sm font-semibold text-slate-500">Menu</span>
              <button
                type="button"
                className="inline-flex size-10 items-center justify-center rounded-md hover:bg-slate-100"
                aria-label="Close menu"
                onClick={() => setOpen(false)}
              >
                <XIcon className="size-5" aria-hidden />
              </button>
            </div>
            <nav aria-label="Mobile">
              <ul className="grid gap-1">
                {items.map((item) => (
                  <li key={item.label}>
                    <Link
                      to={item.to}
                      className="block rounded-md px-3 py-3 text-base font-medium text-slate-800 hover:bg-slate-100"
                    >
                      {item.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          </div>
        </div>
      ) : null}
    </div>
  );
}

function PublicFooter() {
  return (
    <footer className="border-t bg-navy-950 text-slate-300">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-12 sm:px-6 md:grid-cols-4">
        <div className="md:col-span-2">
          <Logo inverted />
          <p className="mt-3 max-w-sm text-sm text-slate-300">
            Milestone-verified capital release for limited partners. Tranche holds no funds: it verifies, records and
            instructs your custodian.
          </p>
          <p className="mt-3 text-sm">
            Contact:{" "}
            <a className="text-white underline" href="mailto:hello@tranche.capital">
              hello@tranche.capital
            </a>
          </p>
        </div>
        <nav aria-label="Product" className="text-sm">
          <h2 className="font-semibold text-white">Product</h2>
          <ul className="mt-3 grid gap-2">
            <li>
              <Link className="hover:text-white" to="/features">
                Features
              </Link>
            </li>
            <li>
              <Link className="hover:text-white" to="/pricing">
                Pricing
              </Link>
            </li>
            <li>
              <Link className="hover:text-white" to="/case-studies">
                Case studies
              </Link>
            </li>
            <li>
              <Link className="hover:text-white" to="/roadmap">
                Roadmap
              </Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="Company" className="text-sm">
          <h2 className="font-semibold text-white">Company</h2>
          <ul className="mt-3 grid gap-2">
            <li>
              <Link className="hover:text-white" to="/about">
                About
              </Link>
            </li>
            <li>
              <Link className="hover:text-white" to="/partners">
                Partners
              </Link>
            </li>
            <li>
              <Link className="hover:text-white" to="/privacy">
                Privacy
              </Link>
            </li>
            <li>
              <Link className="hover:text-white" to="/terms">
                Terms
              </Link>
            </li>
          </ul>
        </nav>
      </div>
      <div className="border-t border-white/10 py-5 text-center text-xs text-slate-400">
        © 2025 Tranche. All rights reserved.
      </div>
    </footer>
  );
}
