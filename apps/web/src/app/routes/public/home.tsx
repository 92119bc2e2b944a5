import { BellRingIcon, FileCheck2Icon, LandmarkIcon, LinkIcon, ScaleIcon, UserCheckIcon } from "lucide-react";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { Faq, type FaqItem } from "@/features/marketing/components/faq";
import { ImpactCalculator } from "@/features/marketing/components/impact-calculator";
import {
  CtaBand,
  type Feature,
  FeatureGrid,
  PageHero,
  REQUEST_DEMO,
  Section,
} from "@/features/marketing/components/page-parts";
import { ReleaseRecordCard } from "@/features/marketing/components/release-record-card";

const COMPARISON = [
  {
    topic: "When capital moves",
    before: "On a drawdown schedule agreed at signing, whatever the project has achieved.",
    after: "When a milestone is verified: each tranche is tied to evidence, not to a date.",
  },
  {
    topic: "Who confirms progress",
    before: "The sponsor's own quarterly report, checked months later if at all.",
    after: "An independent verifier assigned by you, who cannot verify a project they own or invest in.",
  },
  {
    topic: "What the record shows",
    before: "E-mails, PDFs and spreadsheets spread across inboxes.",
    after: "One hash-chained log of who checked what, when, with the SHA-256 of every evidence file.",
  },
  {
    topic: "When something slips",
    before: "You find out at the next reporting date.",
    after: "A rejected or overdue milestone flags the project at risk the same day, and capital stays put.",
  },
  {
    topic: "Instructing the custodian",
    before: "Manual release letters, re-keyed by operations staff.",
    after: "A signed release instruction generated once per verified milestone (or verified part), never twice.",
  },
] as const;

const FEATURES: Feature[] = [
  {
    icon: UserCheckIcon,
    title: "Independent verification",
    text: "Engineers, auditors and field inspectors review each milestone against a six-point checklist before anything is released.",
  },
  {
    icon: LandmarkIcon,
    title: "Milestone-gated release",
    text: "Capital is tied to milestones. Verified releases its tranche; rejected withholds it until the owner revises and resubmits.",
  },
  {
    icon: FileCheck2Icon,
    title: "Tamper-evident evidence",
    text: "Every file is stored under its SHA-256 hash with uploader and time, so anyone can later prove it is the file that was checked.",
  },
  {
    icon: LinkIcon,
    title: "Custodian and escrow instructions",
    text: "Tranche never holds funds. It tells your custodian or escrow agent exactly what to release, once per milestone.",
  },
  {
    icon: BellRingIcon,
    title: "Live portfolio oversight",
    text: "Capital deployed, remaining and at risk across every project, updated the moment a verifier decides.",
  },
  {
    icon: ScaleIcon,
    title: "Separation of duties",
    text: "Owners cannot mark their own work verified, verifiers cannot check projects they are party to, and nobody approves themselves.",
  },
];

const TESTIMONIALS = [
  {
    quote:
      "We used to learn about a stalled site at the quarterly meeting. Now the tranche simply does not move until an engineer we appointed has signed off, and our investment committee can see why.",
    name: "Margaret Oyelaran",
    role: "Chief Investment Officer, Northgate Pension Trust",
  },
  {
    quote:
      "The audit trail is what sold our trustees. Every release points to a named verifier, a checklist and the hash of the evidence they looked at.",
    name: "Henrik Aalto",
    role: "Head of Private Markets, Baltic Mutual Foundation",
  },
  {
    quote:
      "As a sponsor I expected more friction. In practice our capital arrives faster, because nobody has to chase signatures: once the milestone is verified, the custodian has its instruction.",
    name: "Camila Restrepo",
    role: "Managing Director, Andes Renewable Partners",
  },
] as const;

const FAQ: FaqItem[] = [
  {
    question: "Does Tranche hold or move our money?",
    answer:
      "No. Capital stays with your custodian, escrow agent or fund administrator. Tranche runs the verification workflow, keeps the record and issues a release instruction for each verified milestone; the custodian executes it.",
  },
  {
    question: "Who are the verifiers, and who chooses them?",
    answer:
      "Verifiers are independent professionals — chartered engineers, auditors, field inspectors — from our vetted network or your own panel. Your administrator assigns them per project, and Tranche refuses any assignment where the verifier owns or invests in the project.",
  },
  {
    question: "What happens when a milestone is rejected?",
    answer:
      "The verifier must give a reason. The capital for that milestone is withheld, the project is flagged at risk on your dashboard, and the project owner revises the work or evidence and resubmits it for another check.",
  },
  {
    question: "Can a release happen twice, or be edited afterwards?",
    answer:
      "No. A verified milestone is final: it cannot be edited, deleted or verified again, and the database allows one release per milestone and verification round (a milestone paid in parts has one per part, never more than its amount in total), so concurrent or repeated approvals release capital exactly once.",
  },
  {
    question: "How do we prove to auditors what was checked?",
    answer:
      "Each state change is appended to a hash-chained audit log (actor, action, before and after, time), and each evidence file is recorded with its SHA-256 hash, size and uploader. A verification command re-checks the chain end to end.",
  },
  {
    question: "How long does onboarding take?",
    answer:
      "Most limited partners run a first project within two weeks: we import the project and its milestones, connect your custodian to the signed release webhooks and agree the verifier panel. Enterprise deployments on your own infrastructure typically take four to six weeks.",
  },
];

export default function HomePage() {
  return (
    <main id="main">
      <PageHero
        eyebrow="Governance infrastructure for limited partners"
        title="Release capital only when milestones are independently verified"
        lead={
          <p>
            Tranche ties every release of project capital to a milestone that an independent verifier has checked. You
            set the rules, verifiers decide, and your custodian receives the instruction — with a tamper-evident record
            of each step.
          </p>
        }
        aside={<ReleaseRecordCard />}
        primary={REQUEST_DEMO}
        secondary={{ to: "/login", label: "Get Started" }}
      />

      <Section
        id="comparison"
        eyebrow="Why it matters"
        title="Traditional drawdowns versus milestone-verified release"
        intro="Most private capital is still released on a calendar and checked after the fact. Tranche reverses the order."
      >
        <ScrollRegion label="Comparison" className="rounded-lg border border-slate-200">
          <table className="w-full min-w-[40rem] text-left text-sm">
            <caption className="sr-only">Traditional approach compared with Tranche</caption>
            <thead className="bg-slate-50 text-slate-900">
              <tr>
                <th scope="col" className="w-1/5 px-5 py-3 font-semibold">
                  <span className="sr-only">Topic</span>
                </th>
                <th scope="col" className="px-5 py-3 font-semibold">
                  Traditional approach
                </th>
                <th scope="col" className="px-5 py-3 font-semibold text-accent">
                  With Tranche
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {COMPARISON.map((row) => (
                <tr key={row.topic}>
                  <th scope="row" className="px-5 py-4 align-top font-semibold text-slate-900">
                    {row.topic}
                  </th>
                  <td className="px-5 py-4 align-top text-slate-600">{row.before}</td>
                  <td className="px-5 py-4 align-top text-slate-800">{row.after}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </Section>

      <Section
        id="features"
        tone="muted"
        eyebrow="The platform"
        title="Everything between a commitment and a release"
        intro="Six capabilities that turn a capital commitment into a governed, auditable sequence of releases."
      >
        <FeatureGrid features={FEATURES} />
      </Section>

      <Section
        id="impact"
        eyebrow="Impact calculator"
        title="What verified deployment is worth to your portfolio"
        intro="Move the sliders to your capital and number of investments, and choose the profile closest to your mandate."
      >
        <ImpactCalculator />
      </Section>

      <Section id="testimonials" tone="muted" eyebrow="From our clients" title="Trusted by allocators and sponsors">
        <ul className="grid gap-5 lg:grid-cols-3">
          {TESTIMONIALS.map((t) => (
            <li key={t.name} className="flex">
              <figure className="flex flex-col justify-between rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
                <blockquote className="leading-relaxed text-slate-700">“{t.quote}”</blockquote>
                <figcaption className="mt-6 border-t border-slate-100 pt-4">
                  <span className="block font-semibold text-slate-900">{t.name}</span>
                  <span className="block text-sm text-slate-600">{t.role}</span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="faq" eyebrow="Questions" title="Frequently asked questions">
        <div className="max-w-3xl">
          <Faq items={FAQ} />
        </div>
      </Section>

      <CtaBand
        title="See a milestone go from evidence to release"
        text="A 30-minute walkthrough with your own project structure: milestones, verifier assignment, the audit record and the custodian instruction."
        secondary={{ to: "/case-studies", label: "Read case studies" }}
      />
    </main>
  );
}
