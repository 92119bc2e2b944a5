import { CtaBand, PageHero, Section, StatList } from "@/features/marketing/components/page-parts";

const PRINCIPLES = [
  {
    title: "Evidence before money",
    text: "Capital should follow verified progress, not precede it. Every feature we build starts from that order.",
  },
  {
    title: "We never hold funds",
    text: "Custody stays with regulated custodians and escrow agents. Keeping out of the flow of money keeps us neutral.",
  },
  {
    title: "Independence is enforced",
    text: "A verifier who owns or invests in a project cannot check it. We enforce that rule in the software, not a policy document.",
  },
  {
    title: "Records outlive us",
    text: "Audit logs are hash-chained and evidence is content-addressed, so our clients can verify the record without trusting us.",
  },
] as const;

export default function AboutPage() {
  return (
    <main id="main">
      <PageHero
        eyebrow="About Tranche"
        title="We make capital wait for proof"
        lead={
          <p>
            Tranche was founded by people who spent years on both sides of private capital: allocating it at pension
            funds, and drawing it down to build solar farms, clinics and housing. Too often the money moved on a
            calendar while the work fell behind.
          </p>
        }
      />
      <Section id="story" title="Why we built it">
        <div className="grid gap-8 text-lg leading-relaxed text-slate-700 lg:grid-cols-2">
          <p>
            Limited partners commit capital for years, but the tools they have for overseeing its deployment are
            quarterly reports written by the people being overseen. When a project slips, the capital for the next phase
            has often already gone.
          </p>
          <p>
            Tranche puts an independent check between each milestone and its money. The verifier is chosen by the
            investor, the evidence is preserved exactly as it was reviewed, and the custodian releases only what has
            been verified. Nobody has to take anybody's word for it.
          </p>
        </div>
      </Section>
      <Section id="principles" tone="muted" title="What we hold ourselves to">
        <ul className="grid gap-5 md:grid-cols-2">
          {PRINCIPLES.map((p) => (
            <li key={p.title} className="rounded-lg border border-slate-200 bg-white p-6">
              <h3 className="font-semibold text-slate-900">{p.title}</h3>
              <p className="mt-2 leading-relaxed text-slate-600">{p.text}</p>
            </li>
          ))}
        </ul>
      </Section>
      <Section id="numbers" title="Tranche in numbers">
        <StatList
          stats={[
            { value: "2023", label: "Founded" },
            { value: "3", label: "Offices: London, Nairobi, Singapore" },
            { value: "400+", label: "Verifiers in the vetted network" },
            { value: "0", label: "Dollars of client capital we hold" },
          ]}
        />
      </Section>
      <CtaBand
        title="Work with us"
        text="Whether you allocate capital, build projects or verify them, we would like to hear from you."
        secondary={{ to: "/become-verifier", label: "Become a verifier" }}
      />
    </main>
  );
}
