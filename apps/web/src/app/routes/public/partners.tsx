import { BadgeCheckIcon, BriefcaseIcon, LandmarkIcon, PlugIcon } from "lucide-react";
import { CtaBand, IconCards, PageHero, Section } from "@/features/marketing/components/page-parts";

const GROUPS = [
  {
    icon: LandmarkIcon,
    title: "Custodians and escrow agents",
    text: "Receive a release instruction for each verified milestone in the format their operations team already processes.",
    examples: ["Harbourline Trust Services", "Meridian Escrow", "Caldera Custody"],
  },
  {
    icon: BadgeCheckIcon,
    title: "Verification firms",
    text: "Engineering consultancies, audit practices and field-inspection networks that supply independent verifiers.",
    examples: ["Stratum Engineering Review", "Northfield Assurance", "Terrafirma Inspections"],
  },
  {
    icon: BriefcaseIcon,
    title: "Fund administrators",
    text: "Reconcile releases against capital accounts using Tranche's exports and the audit record.",
    examples: ["Granite Fund Services", "Alder & Company Administration"],
  },
  {
    icon: PlugIcon,
    title: "Technology partners",
    text: "Document management, e-signature and portfolio systems connected through our API.",
    examples: ["Ledgerline", "Docuvault", "PortfolioOne"],
  },
] as const;

export default function PartnersPage() {
  return (
    <main id="main">
      <PageHero
        eyebrow="Partners"
        title="The network that turns a verified milestone into a release"
        lead={
          <p>
            Tranche works alongside the institutions that already hold, check and account for capital. Our partners keep
            their roles; Tranche connects them with one shared record.
          </p>
        }
        primary={{ to: "/contact", label: "Become a partner" }}
        secondary={{ to: "/become-verifier", label: "Join as a verifier" }}
      />
      <Section id="partner-types" title="Who we work with">
        <IconCards
          columns={2}
          items={GROUPS.map((group) => ({
            ...group,
            more: (
              <p className="mt-4 text-sm text-slate-700">
                <span className="font-medium">Including:</span> {group.examples.join(" · ")}
              </p>
            ),
          }))}
        />
      </Section>
      <Section
        id="programme"
        tone="muted"
        title="The partner programme"
        intro="Certified partners are listed to clients, get a sandbox for integration, and a named contact on our team."
      >
        <ol className="grid gap-5 md:grid-cols-3">
          {[
            ["Apply", "Tell us about your firm and the services you provide to investors or projects."],
            ["Certify", "Connect in the sandbox and complete a test release or verification with our team."],
            ["Launch", "Appear in the partner directory and receive introductions from clients who need you."],
          ].map(([title, text], index) => (
            <li key={title} className="rounded-lg border border-slate-200 bg-white p-6">
              <span className="text-sm font-semibold text-accent">Step {index + 1}</span>
              <h3 className="mt-1 font-semibold text-slate-900">{title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-slate-600">{text}</p>
            </li>
          ))}
        </ol>
      </Section>
      <CtaBand
        title="Serve institutional investors through Tranche"
        text="Custodians, verification firms and administrators: tell us about your services."
        primary={{ to: "/contact", label: "Contact partnerships" }}
        secondary={{ to: "/institutional-partners", label: "For institutional investors" }}
      />
    </main>
  );
}
