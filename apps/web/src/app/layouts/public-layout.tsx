import { ChevronDownIcon } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Link, NavLink, Outlet, useLocation } from "react-router";
import { publicPageTitle } from "../routes/public/routes";
import { BottomDrawer } from "./bottom-drawer";
import { Logo } from "./brand";

// Plain class strings here, not cn(): this layout is part of the landing page's first load.

const NAV = [
  { to: "/", label: "Home" },
  { to: "/features", label: "Features" },
  { to: "/pricing", label: "Pricing" },
  { to: "/about", label: "About" },
  { to: "/partners", label: "Partners" },
];
/** The header's Products menu. */
const PRODUCTS = [
  { to: "/features", label: "Verification Platform", text: "Independent checks before every release" },
  { to: "/institutional-partners", label: "Governance Infrastructure", text: "Rules, records and oversight for LPs" },
];
const FOOTER = [
  {
    title: "Product",
    links: [
      { to: "/features", label: "Features" },
      { to: "/ai-verification", label: "AI verification" },
      { to: "/verifier-app", label: "Verifier app" },
      { to: "/gold-backed-protection", label: "Gold-backed protection" },
      { to: "/pricing", label: "Pricing" },
      { to: "/roadmap", label: "Roadmap" },
    ],
  },
  {
    title: "Solutions",
    links: [
      { to: "/institutional-partners", label: "Institutional partners" },
      { to: "/enterprise", label: "Enterprise" },
      { to: "/case-studies", label: "Case studies" },
      { to: "/become-verifier", label: "Become a verifier" },
      { to: "/demo", label: "Product demo" },
    ],
  },
  {
    title: "Company",
    links: [
      { to: "/about", label: "About" },
      { to: "/partners", label: "Partners" },
      { to: "/contact", label: "Contact" },
      { to: "/privacy", label: "Privacy" },
      { to: "/terms", label: "Terms" },
    ],
  },
];

const navLink =
  "rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-950 aria-[current=page]:text-slate-950 aria-[current=page]:underline aria-[current=page]:decoration-accent aria-[current=page]:decoration-2 aria-[current=page]:underline-offset-8";

export function PublicLayout() {
  const { pathname, hash } = useLocation();
  // A new page starts at its top (an in-page #anchor is left to the browser). Not the first page: it may be
  // prerendered and already scrolled by the reader before it hydrates.
  const firstPage = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every change of page
  useEffect(() => {
    if (firstPage.current) firstPage.current = false;
    else if (!hash) window.scrollTo(0, 0);
  }, [pathname, hash]);
  // Each public page's own title (a prerendered page arrives with it); the sign-in pages here set theirs.
  useEffect(() => {
    const title = publicPageTitle(pathname);
    if (title) document.title = title;
  }, [pathname]);
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

/** A disclosure (not an ARIA menu): a button that shows a list of links. */
function ProductsMenu() {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const listId = useId();
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: close whenever the route changes
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    // A click or focus anywhere outside the menu closes it.
    const onOutside = (event: Event) => {
      if (!ref.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener("mousedown", onOutside);
    document.addEventListener("focusin", onOutside);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onOutside);
      document.removeEventListener("focusin", onOutside);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);
  return (
    <div ref={ref} className="relative">
      <button
        ref={button}
        type="button"
        className={`${navLink} inline-flex cursor-pointer items-center gap-1`}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((v) => !v)}
      >
        Products
        <ChevronDownIcon className={`size-4 transition-transform ${open ? "rotate-180" : ""}`} aria-hidden />
      </button>
      <ul
        id={listId}
        hidden={!open}
        className="absolute left-0 top-full z-40 mt-2 w-80 rounded-lg border border-slate-200 bg-white p-2 shadow-lg"
      >
        {PRODUCTS.map((item) => (
          <li key={item.label}>
            <Link to={item.to} className="block rounded-md p-3 hover:bg-slate-50" onClick={() => setOpen(false)}>
              <span className="block text-sm font-semibold text-slate-900">{item.label}</span>
              <span className="block text-sm text-slate-600">{item.text}</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

interface SignedInUser {
  name: string;
  email: string;
}

/**
 * The signed-in user, if any, read once with a plain fetch: the app's query client is not part of the public
 * pages' first load (docs/decisions/007).
 */
function useSignedInUser(): SignedInUser | null {
  const [user, setUser] = useState<SignedInUser | null>(null);
  useEffect(() => {
    let live = true;
    fetch("/api/auth/session", { credentials: "same-origin", headers: { accept: "application/json" } })
      .then((res) => (res.ok ? res.json() : null))
      .then((body: { user?: SignedInUser | null } | null) => live && setUser(body?.user ?? null))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return user;
}

function PublicHeader() {
  const user = useSignedInUser();
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
        <Logo />
        <nav aria-label="Main" className="hidden items-center gap-1 lg:flex">
          <NavLink to="/" end className={navLink}>
            Home
          </NavLink>
          <NavLink to="/features" className={navLink}>
            Features
          </NavLink>
          <ProductsMenu />
          {NAV.slice(2).map((item) => (
            <NavLink key={item.to} to={item.to} className={navLink}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        {user ? (
          <div className="hidden min-w-0 items-center gap-3 lg:flex">
            <span className="max-w-48 truncate text-sm text-slate-600" title={user.email} data-testid="public-user">
              {user.name || user.email}
            </span>
            <Link
              to="/dashboard"
              className="rounded-md bg-primary px-4 py-2 text-sm font-medium text-white hover:bg-navy-800"
            >
              Dashboard
            </Link>
          </div>
        ) : (
          <div className="hidden items-center gap-2 lg:flex">
            <Link to="/login" className={navLink}>
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
        )}
        <MobileDrawer user={user} />
      </div>
    </header>
  );
}

/** On small screens a bottom drawer holds the navigation. */
function MobileDrawer({ user }: { user: SignedInUser | null }) {
  // Signed in, the way back to the app replaces the sign-in and sign-up calls to action.
  const items = user
    ? [...NAV, { to: "/dashboard", label: "Dashboard" }]
    : [
        ...NAV,
        { to: "/login", label: "Log in" },
        { to: "/contact", label: "Request Demo" },
        { to: "/login", label: "Get Started" },
      ];
  const title = user ? user.name || user.email : "Menu";
  return (
    <BottomDrawer
      title={
        <span className="block max-w-56 truncate text-sm font-semibold text-slate-600" title={title}>
          {title}
        </span>
      }
    >
      {(close) => (
        <nav aria-label="Mobile">
          <ul className="grid gap-1">
            {items.map((item) => (
              <li key={item.label}>
                {item.label === "Get Started" || item.label === "Dashboard" ? (
                  <Link
                    to={item.to}
                    onClick={close}
                    className="mt-2 block rounded-md bg-primary px-3 py-3 text-center text-base font-semibold text-white"
                  >
                    {item.label}
                  </Link>
                ) : (
                  <NavLink
                    to={item.to}
                    end
                    onClick={close}
                    className="block rounded-md px-3 py-3 text-base font-medium text-slate-800 hover:bg-slate-100 aria-[current=page]:bg-slate-100 aria-[current=page]:font-semibold aria-[current=page]:text-slate-950"
                  >
                    {item.label}
                  </NavLink>
                )}
              </li>
            ))}
          </ul>
        </nav>
      )}
    </BottomDrawer>
  );
}

function PublicFooter() {
  return (
    <footer className="bg-navy-950 text-slate-300">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-2 lg:grid-cols-5">
        <div className="lg:col-span-2">
          <Logo inverted />
          <p className="mt-4 max-w-sm text-sm leading-relaxed">
            Milestone-verified capital release for limited partners. Tranche holds no funds: it verifies, records and
            instructs your custodian.
          </p>
          <address className="mt-4 text-sm not-italic leading-relaxed">
            Contact:{" "}
            <a className="font-medium text-white underline underline-offset-4" href="mailto:hello@tranche.capital">
              hello@tranche.capital
            </a>
          </address>
        </div>
        {FOOTER.map((column) => (
          <nav key={column.title} aria-label={column.title} className="text-sm">
            <h2 className="font-semibold text-white">{column.title}</h2>
            <ul className="mt-4 grid gap-2.5">
              {column.links.map((link) => (
                <li key={link.to}>
                  <Link className="hover:text-white hover:underline" to={link.to}>
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-7xl px-4 py-5 text-xs text-slate-400 sm:px-6">
          © 2025 Tranche. All rights reserved. Tranche is a verification and record-keeping service; it does not hold,
          manage or transmit funds.
        </p>
      </div>
    </footer>
  );
}
