import { Link } from "react-router";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { Faq } from "@/features/marketing/components/faq";
import {
  CheckList,
  CtaBand,
  PageHero,
  primaryButton,
  Section,
  secondaryButton,
} from "@/features/marketing/components/page-parts";

const PLANS = [
  {
    name: "Standard",
    price: "$2,500",
    period: "per month, billed annually",
    summary: "For a single fund running its first milestone-verified projects.",
    features: [
      "Up to 10 active projects",
      "Unlimited milestones and evidence files",
      "Verifier assignment from your own panel",
      "Hash-chained audit log and exports",
      "Signed release instructions to your custodian by webhook",
    ],
    cta: { to: "/contact", label: "Request Demo" },
  },
  {
    name: "Premium",
    price: "$7,500",
    period: "per month, billed annually",
    summary: "For allocators with several managers, custodians and verifier firms.",
    features: [
      "Up to 50 active projects",
      "Everything in Standard",
      "Automatic evidence checks on every upload",
      "Access to the vetted verifier network",
      "Priority support with a named contact",
    ],
    cta: { to: "/contact", label: "Request Demo" },
    highlight: true,
  },
  {
    name: "Enterprise",
    price: "Custom",
    period: "annual agreement",
    summary: "For institutions that need their own deployment, controls and service levels.",
    features: [
      "Unlimited projects",
      "Everything in Premium",
      "Automatic evidence checks on every upload",
      "Your own PostgreSQL deployment",
      "99.9% availability commitment",
    ],
    cta: { to: "/enterprise", label: "Talk to us about Enterprise" },
  },
] as const;

const ROWS = [
  ["Active projects", "10", "50", "Unlimited"],
  ["Independent verification workflow", "Included", "Included", "Included"],
  ["Audit log and evidence hashing", "Included", "Included", "Included"],
  ["Automatic evidence checks", "Included", "Included", "Included"],
  ["Smart contract disbursements", "Roadmap", "Roadmap", "Roadmap"],
  ["Vetted verifier network", "—", "Included", "Included"],
  ["Own deployment", "—", "—", "Included"],
  ["Single sign-on", "Roadmap", "Roadmap", "Roadmap"],
] as const;

export default function PricingPage() {
  return (
    <main id="main">
      <PageHero
        eyebrow="Pricing"
        title="Priced per platform, not per dollar released"
        lead={
          <p>
            Tranche never takes a share of the capital it helps release. You pay a flat annual fee for the platform;
            verifier fees are agreed directly between you and the verifier.
          </p>
        }
      />
      <section aria-label="Plans" className="bg-white">
        <ul className="mx-auto grid max-w-7xl gap-6 px-4 py-16 sm:px-6 lg:grid-cols-3">
          {PLANS.map((plan) => (
            <li
              key={plan.name}
              className={`flex flex-col rounded-xl border p-7 ${
                "highlight" in plan ? "border-navy-900 shadow-lg ring-1 ring-navy-900" : "border-slate-200 shadow-sm"
              }`}
            >
              <div className="flex items-center justify-between">
                <h2 className="text-xl font-semibold text-slate-900">{plan.name}</h2>
                {"highlight" in plan ? (
                  <span className="rounded-full bg-emerald-50 px-3 py-1 text-xs font-semibold text-emerald-800">
                    Most chosen
                  </span>
                ) : null}
              </div>
              <p className="mt-2 text-sm text-slate-600">{plan.summary}</p>
              <p className="mt-6">
                <span className="text-4xl font-semibold tracking-tight text-slate-900">{plan.price}</span>
                <span className="mt-1 block text-sm text-slate-600">{plan.period}</span>
              </p>
              <div className="mt-6 flex-1 text-sm">
                <CheckList items={plan.features} />
              </div>
              <Link to={plan.cta.to} className={`mt-8 ${"highlight" in plan ? primaryButton : secondaryButton}`}>
                {plan.cta.label}
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <Section id="compare" tone="muted" title="Compare plans">
        <ScrollRegion label="Plan comparison" className="rounded-lg border border-slate-200 bg-white">
          <table className="w-full min-w-[36rem] text-left text-sm">
            <caption className="sr-only">What each plan includes</caption>
            <thead className="border-b border-slate-200 text-slate-900">
              <tr>
                <th scope="col" className="px-5 py-3 font-semibold">
                  Capability
                </th>
                {PLANS.map((plan) => (
                  <th key={plan.name} scope="col" className="px-5 py-3 font-semibold">
                    {plan.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {ROWS.map(([capability, ...cells]) => (
                <tr key={capability}>
                  <th scope="row" className="px-5 py-3 font-medium text-slate-800">
                    {capability}
                  </th>
                  {cells.map((cell, index) => (
                    <td key={PLANS[index].name} className="px-5 py-3 text-slate-600">
                      {cell === "—" ? (
                        <>
                          <span aria-hidden>—</span>
                          <span className="sr-only">Not included</span>
                        </>
                      ) : (
                        cell
                      )}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </Section>

      <Section id="pricing-faq" title="Pricing questions">
        <div className="max-w-3xl">
          <Faq
            defaultOpen={null}
            items={[
              {
                question: "Do you charge a percentage of released capital?",
                answer:
                  "No. Our fee does not depend on how much capital you release, so Tranche has no interest in any release decision.",
              },
              {
                question: "Who pays the verifiers?",
                answer:
                  "You agree fees directly with the verifier or verification firm. Network verifiers publish their day rates before you assign them.",
              },
              {
                question: "Can we start on Standard and move up?",
                answer:
                  "Yes. Upgrades take effect immediately and are pro-rated; your projects, records and audit chain carry over unchanged.",
              },
            ]}
          />
        </div>
      </Section>

      <CtaBand
        title="Not sure which plan fits?"
        text="Tell us how many projects, managers and custodians you work with, and we will recommend one."
      />
    </main>
  );
}
