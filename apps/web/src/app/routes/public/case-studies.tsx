import { CtaBand, PageHero } from "@/features/marketing/components/page-parts";

const CASES = [
  {
    client: "A Nordic public pension fund",
    industry: "Renewable energy",
    challenge:
      "$180M committed to eleven onshore wind and solar projects in three countries, released on a fixed drawdown schedule that ran well ahead of construction.",
    solution:
      "Forty-four milestones (permits, grid connection, turbine delivery, commissioning) each verified by an independent engineer appointed by the fund before its tranche moved.",
    results: [
      "$21M held back from two projects whose grid connections slipped",
      "Commissioning verified on nine projects within the first year",
      "Quarterly trustee reports prepared in two days instead of ten",
    ],
  },
  {
    client: "An East African healthcare investor",
    industry: "Healthcare infrastructure",
    challenge:
      "Building 14 clinics across rural Kenya and Uganda, with progress reports that were weeks old and hard to check from abroad.",
    solution:
      "Local field verifiers capturing geotagged photos and checklists on site, with each clinic's funding split into foundation, structure, fit-out and licensing milestones.",
    results: [
      "All 14 clinics opened, 12 of them on schedule",
      "Average time from site visit to release cut from 19 days to 3",
      "Every release traceable to a named verifier and dated evidence",
    ],
  },
  {
    client: "A US affordable-housing fund of funds",
    industry: "Real estate",
    challenge:
      "Oversight of 23 developers building 2,600 affordable homes, with capital calls approved on the developers' own certifications.",
    solution:
      "Tranche milestones aligned with construction draws, each checked by an independent quantity surveyor against the approved budget.",
    results: [
      "$9.4M of over-budget draws caught before release",
      "Draw approval time down from 15 business days to 4",
      "Zero findings on draw controls in the annual audit",
    ],
  },
  {
    client: "A development finance institution",
    industry: "Agriculture",
    challenge:
      "Blended-finance loans to 60 smallholder cooperatives for irrigation and storage, where past programmes had lost track of disbursed funds.",
    solution:
      "Small, frequent milestones verified by agronomists through the offline verifier app, with evidence synced once back in coverage.",
    results: [
      "96% of milestones verified within a week of completion",
      "Irrigated area independently confirmed at 4,800 hectares",
      "Donor reporting produced directly from the audit record",
    ],
  },
  {
    client: "A European infrastructure manager",
    industry: "Transport",
    challenge:
      "A €240M rail electrification programme with co-investors who each demanded their own oversight and reporting.",
    solution:
      "One shared Tranche record for all co-investors, with each investor's release rules applied to the same verified milestones.",
    results: [
      "Five co-investors working from one record instead of five",
      "Disputes over milestone completion fell to zero",
      "Each release instructed to the escrow agent within an hour of approval",
    ],
  },
  {
    client: "A university endowment",
    industry: "Venture and growth",
    challenge:
      "Tranched growth investments in climate-technology companies, released on technical milestones that the investment team struggled to assess.",
    solution:
      "Specialist technical verifiers for each company's milestones (pilot plant output, certification, first customer deliveries), with AI-assisted document review.",
    results: [
      "Two tranches deferred until pilot data met the agreed thresholds",
      "Investment team time on milestone checks down by 70%",
      "A clear record for the endowment's investment committee",
    ],
  },
  {
    client: "A family office",
    industry: "Education",
    challenge:
      "Philanthropic capital for 30 schools in South Asia, with a principal who wanted assurance without building an in-house monitoring team.",
    solution:
      "Tranche's verifier network supplying local education inspectors, with gold-backed protection for undisbursed funds held in a high-inflation currency.",
    results: [
      "30 schools built and inspected, 9,400 pupils enrolled in the first year",
      "Undisbursed funds preserved in value through a 28% currency devaluation",
      "Monthly assurance reports with no additional staff",
    ],
  },
] as const;

export default function CaseStudiesPage() {
  return (
    <main id="main">
      <PageHero
        eyebrow="Case studies"
        title="Milestone-verified capital in practice"
        lead={
          <p>
            Seven clients, seven industries. Each shows the challenge they brought to Tranche, how the work was
            verified, and what changed. Clients are anonymised at their request.
          </p>
        }
      />
      <div className="mx-auto grid max-w-7xl gap-6 px-4 py-16 sm:px-6">
        {CASES.map((c, index) => (
          <article
            key={c.client}
            aria-labelledby={`case-${index}`}
            className="grid gap-6 rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 lg:grid-cols-[16rem_1fr]"
          >
            <header>
              <p className="text-sm font-semibold uppercase tracking-wider text-accent">{c.industry}</p>
              <h2 id={`case-${index}`} className="mt-2 text-xl font-semibold text-slate-900">
                {c.client}
              </h2>
            </header>
            <dl className="grid gap-6 md:grid-cols-3">
              <div>
                <dt className="text-sm font-semibold text-slate-900">Challenge</dt>
                <dd className="mt-2 text-sm leading-relaxed text-slate-600">{c.challenge}</dd>
              </div>
              <div>
                <dt className="text-sm font-semibold text-slate-900">Solution</dt>
                <dd className="mt-2 text-sm leading-relaxed text-slate-600">{c.solution}</dd>
              </div>
              <div>
                <dt className="text-sm font-semibold text-slate-900">Results</dt>
                <dd className="mt-2">
                  <ul className="grid gap-2 text-sm leading-relaxed text-slate-700">
                    {c.results.map((r) => (
                      <li key={r} className="border-l-2 border-emerald-600 pl-3">
                        {r}
                      </li>
                    ))}
                  </ul>
                </dd>
              </div>
            </dl>
          </article>
        ))}
      </div>
      <CtaBand
        title="Your portfolio could be the eighth"
        text="Tell us about a commitment you are planning, and we will show you how its milestones would work in Tranche."
      />
    </main>
  );
}
