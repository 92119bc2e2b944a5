import { CtaBand, PageHero, Section } from "@/features/marketing/components/page-parts";
import { RequestForm } from "@/features/public-requests/components/request-form";

const STEPS = [
  {
    title: "Set the rules",
    text: "As the investor, you define the project's total capital and its milestones, each with a due date and the amount it releases.",
  },
  {
    title: "Assign an independent verifier",
    text: "An administrator assigns a verifier from the network. Tranche refuses anyone who owns or invests in the project.",
  },
  {
    title: "Submit evidence",
    text: "The project owner uploads permits, invoices, photos and reports. Each file is stored under its SHA-256 hash.",
  },
  {
    title: "Verify against the checklist",
    text: "The verifier works through documentation, compliance, quality, timeline, budget and risk, then approves or rejects with reasons.",
  },
  {
    title: "Release, exactly once",
    text: "Approval writes the release record and the custodian instruction in one step; a rejection withholds the tranche until resubmission.",
  },
  {
    title: "Oversee and audit",
    text: "Dashboards show deployed, remaining and at-risk capital; the hash-chained log shows who did what, and when.",
  },
] as const;

export default function DemoPage() {
  return (
    <main id="main">
      <PageHero
        eyebrow="Product demo"
        title="Follow one milestone from evidence to release"
        lead={
          <p>
            The demo takes a real project structure through the whole Tranche workflow. Try it yourself with the demo
            accounts on the sign-in page, or book a guided session.
          </p>
        }
        secondary={{ to: "/login", label: "Open the sandbox" }}
      />

      <Section
        id="walkthrough"
        title="What you will see"
        intro="Six steps, each done by a different role, each on the record."
      >
        <ol className="grid gap-5 md:grid-cols-2 lg:grid-cols-3">
          {STEPS.map((step, index) => (
            <li key={step.title} className="rounded-lg border border-slate-200 p-6">
              <span className="inline-flex size-8 items-center justify-center rounded-full bg-navy-900 text-sm font-semibold text-white">
                {index + 1}
              </span>
              <h3 className="mt-4 font-semibold text-slate-900">{step.title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-slate-600">{step.text}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section
        id="book"
        tone="muted"
        title="Book a guided demo"
        intro="Thirty minutes with a product specialist, using your portfolio's structure rather than ours."
      >
        <div className="max-w-2xl rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <RequestForm
            kind="demo"
            source="/demo"
            submitLabel="Request Demo"
            receivedText="Thank you. We'll contact you within one business day to arrange your demo."
            fields={[
              { name: "name", label: "Full name", required: true, autoComplete: "name" },
              { name: "email", label: "Work email", autoComplete: "email" },
              { name: "organization", label: "Organization", required: true, autoComplete: "organization" },
            ]}
          />
        </div>
      </Section>

      <CtaBand
        title="Rather read first?"
        text="Seven case studies show how allocators and sponsors use milestone-verified release in practice."
        primary={{ to: "/case-studies", label: "Read case studies" }}
      />
    </main>
  );
}
