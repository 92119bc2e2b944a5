import { CtaBand, PageHero } from "@/features/marketing/components/page-parts";

// What the product does today, what is being built and what is planned: kept to what the code holds (a shipped item
// names something a person can use now).
const STAGES = [
  {
    status: "Shipped",
    badge: "bg-emerald-100 text-emerald-800",
    items: [
      [
        "Independent verification workflow",
        "Start, approve and reject with a six-point checklist and required reasons.",
      ],
      ["Exactly-once releases", "One release per milestone and verification round, safe under concurrent approvals."],
      ["Release rules", "A quorum of verifiers and an investor countersign above an amount, set per project."],
      ["Hash-chained audit log", "Every state change appended and chained, with a command to verify the chain."],
      ["Live notifications", "Decisions pushed to the people they concern, in the app, by e-mail and Web Push."],
      ["Verifier field app", "Offline checklists and evidence capture with GPS and time tags, passkey sign-in."],
      [
        "Automatic evidence checks",
        "Fields read from invoices, certificates and reports; reused photos and edited files flagged, with figures measured.",
      ],
      [
        "Custodian webhooks",
        "Signed release instructions delivered to the custodian's systems, retried for 24 hours until received.",
      ],
      ["Release certificates", "A signed certificate per release that anyone can check on a public page."],
    ],
  },
  {
    status: "In progress",
    badge: "bg-sky-100 text-sky-800",
    items: [
      ["Evidence checks on more documents", "Every page of a scanned PDF, and languages beyond English."],
      ["Custodian connectors", "Release instructions delivered straight into custodians' payment systems."],
    ],
  },
  {
    status: "Planned",
    badge: "bg-slate-200 text-slate-700",
    items: [
      ["Smart contract disbursements", "On-chain execution of releases where the custodian supports it."],
      ["Single sign-on", "SAML or OpenID Connect with your identity provider, roles mapped from directory groups."],
      ["Co-investor rules", "Different release rules per investor applied to the same verified milestones."],
    ],
  },
] as const;

export default function RoadmapPage() {
  return (
    <main id="main">
      <PageHero
        eyebrow="Roadmap"
        title="What we have built, and what comes next"
        lead={<p>We publish our roadmap so clients can plan with us. Dates move; the order rarely does.</p>}
      />
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-16 sm:px-6 lg:grid-cols-3">
        {STAGES.map((stage) => (
          <section key={stage.status} aria-labelledby={`stage-${stage.status.replace(" ", "-")}`}>
            <h2
              id={`stage-${stage.status.replace(" ", "-")}`}
              className="flex items-center gap-3 text-xl font-semibold text-slate-900"
            >
              {stage.status}
              <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${stage.badge}`}>
                {stage.items.length} items
              </span>
            </h2>
            <ul className="mt-5 grid gap-4">
              {stage.items.map(([title, text]) => (
                <li key={title} className="rounded-lg border border-slate-200 p-5">
                  <h3 className="font-semibold text-slate-900">{title}</h3>
                  <p className="mt-1 text-sm leading-relaxed text-slate-600">{text}</p>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
      <CtaBand
        title="Need something that is not here?"
        text="Most of our roadmap comes from client requests. Tell us what your governance process needs."
      />
    </main>
  );
}
