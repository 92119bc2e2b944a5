// Building blocks of the public pages. Plain class strings (no tailwind-merge, no radix) keep the
// landing page's JavaScript inside its budget.
import type { LucideIcon } from "lucide-react";
import type * as React from "react";
import { Link } from "react-router";

const buttonBase =
  "inline-flex h-11 items-center justify-center gap-2 rounded-md px-5 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2";
export const primaryButton = `${buttonBase} bg-accent text-white hover:bg-emerald-800 focus-visible:outline-ring`;
export const secondaryButton = `${buttonBase} border border-slate-300 bg-white text-slate-900 hover:bg-slate-50 focus-visible:outline-ring`;
/** For dark (navy) backgrounds. */
export const secondaryButtonDark = `${buttonBase} border border-white/30 text-white hover:bg-white/10 focus-visible:outline-white`;

/** Where a call to action leads, and what it says. */
export interface PageLink {
  to: string;
  label: string;
}

/** The call to action most pages close with. */
export const REQUEST_DEMO: PageLink = { to: "/contact", label: "Request Demo" };

/** A page's links to act on, on a dark background: the main one, then a second. */
function ActionLinks({ primary, secondary }: { primary?: PageLink; secondary?: PageLink }) {
  return (
    <>
      {primary ? (
        <Link to={primary.to} className={primaryButton}>
          {primary.label}
        </Link>
      ) : null}
      {secondary ? (
        <Link to={secondary.to} className={secondaryButtonDark}>
          {secondary.label}
        </Link>
      ) : null}
    </>
  );
}

/** A page's opening: eyebrow, title and lead on navy, its links (`primary`, `secondary` or `children`), an aside. */
export function PageHero({
  eyebrow,
  title,
  lead,
  primary,
  secondary,
  children,
  aside,
}: {
  eyebrow: string;
  title: React.ReactNode;
  lead: React.ReactNode;
  primary?: PageLink;
  secondary?: PageLink;
  children?: React.ReactNode;
  aside?: React.ReactNode;
}) {
  const actions = primary || secondary || children;
  return (
    <section className="bg-navy-950 text-white" aria-labelledby="page-title">
      <div
        className={`mx-auto grid max-w-7xl gap-10 px-4 py-16 sm:px-6 sm:py-20 ${aside ? "lg:grid-cols-[1.1fr_0.9fr] lg:items-center" : ""}`}
      >
        <div className="max-w-3xl">
          <p className="text-sm font-semibold uppercase tracking-wider text-emerald-300">{eyebrow}</p>
          <h1 id="page-title" className="mt-3 text-4xl font-semibold tracking-tight text-balance sm:text-5xl">
            {title}
          </h1>
          <div className="mt-5 text-lg leading-relaxed text-slate-300">{lead}</div>
          {actions ? (
            <div className="mt-8 flex flex-wrap gap-3">
              <ActionLinks primary={primary} secondary={secondary} />
              {children}
            </div>
          ) : null}
        </div>
        {aside}
      </div>
    </section>
  );
}

export function Section({
  id,
  eyebrow,
  title,
  intro,
  children,
  tone = "white",
}: {
  id: string;
  eyebrow?: string;
  title: string;
  intro?: React.ReactNode;
  children: React.ReactNode;
  tone?: "white" | "muted";
}) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className={`scroll-mt-20 ${tone === "muted" ? "bg-slate-50" : "bg-white"}`}
    >
      <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 sm:py-20">
        <div className="max-w-3xl">
          {eyebrow ? <p className="text-sm font-semibold uppercase tracking-wider text-accent">{eyebrow}</p> : null}
          <h2 id={`${id}-title`} className="mt-2 text-3xl font-semibold tracking-tight text-slate-900 text-balance">
            {title}
          </h2>
          {intro ? <div className="mt-4 text-lg leading-relaxed text-slate-600">{intro}</div> : null}
        </div>
        <div className="mt-10">{children}</div>
      </div>
    </section>
  );
}

export interface Feature {
  icon: LucideIcon;
  title: string;
  text: string;
}

export function FeatureGrid({ features, columns = 3 }: { features: readonly Feature[]; columns?: 2 | 3 }) {
  return (
    <ul className={`grid gap-5 sm:grid-cols-2 ${columns === 3 ? "lg:grid-cols-3" : ""}`}>
      {features.map(({ icon: Icon, title, text }) => (
        <li key={title} className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <span className="inline-flex size-10 items-center justify-center rounded-md bg-emerald-50 text-accent">
            <Icon className="size-5" aria-hidden />
          </span>
          <h3 className="mt-4 text-base font-semibold text-slate-900">{title}</h3>
          <p className="mt-2 text-sm leading-relaxed text-slate-600">{text}</p>
        </li>
      ))}
    </ul>
  );
}

/** Outlined cards, each an icon, a title, a text and, when an item has it, a line more. */
export function IconCards({
  items,
  columns,
}: {
  items: readonly (Feature & { more?: React.ReactNode })[];
  columns: 2 | 3;
}) {
  return (
    <ul className={`grid gap-5 ${columns === 3 ? "md:grid-cols-3" : "md:grid-cols-2"}`}>
      {items.map(({ icon: Icon, title, text, more }) => (
        <li key={title} className="rounded-lg border border-slate-200 p-6">
          <Icon className="size-6 text-accent" aria-hidden />
          <h3 className="mt-4 font-semibold text-slate-900">{title}</h3>
          <p className="mt-2 text-sm leading-relaxed text-slate-600">{text}</p>
          {more}
        </li>
      ))}
    </ul>
  );
}

export function StatList({ stats }: { stats: readonly { value: string; label: string }[] }) {
  return (
    <dl className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
      {stats.map((stat) => (
        <div key={stat.label} className="rounded-lg border border-slate-200 bg-white p-6">
          <dt className="text-sm text-slate-600">{stat.label}</dt>
          <dd className="mt-2 text-3xl font-semibold tracking-tight text-slate-900">{stat.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A checked list: each item a short bold lead and its explanation. */
export function CheckList({ items }: { items: readonly (string | { lead: string; text: string })[] }) {
  return (
    <ul className="grid gap-3">
      {items.map((item) => {
        const key = typeof item === "string" ? item : item.lead;
        return (
          <li key={key} className="flex gap-3 text-slate-700">
            <svg viewBox="0 0 20 20" className="mt-0.5 size-5 shrink-0 text-accent" aria-hidden fill="currentColor">
              <path
                fillRule="evenodd"
                d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z"
                clipRule="evenodd"
              />
            </svg>
            {typeof item === "string" ? (
              <span>{item}</span>
            ) : (
              <span>
                <strong className="font-semibold text-slate-900">{item.lead}</strong> {item.text}
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** The closing call to action of a page. */
export function CtaBand({
  title,
  text,
  primary = REQUEST_DEMO,
  secondary,
}: {
  title: string;
  text: string;
  primary?: PageLink;
  secondary?: PageLink;
}) {
  return (
    <section aria-labelledby="cta-title" className="bg-navy-900 text-white">
      <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-14 sm:px-6 lg:flex-row lg:items-center lg:justify-between">
        <div className="max-w-2xl">
          <h2 id="cta-title" className="text-2xl font-semibold tracking-tight sm:text-3xl">
            {title}
          </h2>
          <p className="mt-3 text-slate-300">{text}</p>
        </div>
        <div className="flex flex-wrap gap-3">
          <ActionLinks primary={primary} secondary={secondary} />
        </div>
      </div>
    </section>
  );
}

/** Long-form text (privacy, terms): headings and paragraphs at a readable measure. */
export function Prose({ children }: { children: React.ReactNode }) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-14 text-slate-700 sm:px-6 [&_h2]:mt-10 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-slate-900 [&_li]:mt-2 [&_p]:mt-4 [&_p]:leading-relaxed [&_ul]:mt-4 [&_ul]:list-disc [&_ul]:pl-6 [&_a]:font-medium [&_a]:text-blue-700 [&_a]:underline">
      {children}
    </div>
  );
}
