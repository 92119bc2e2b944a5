import { EyeIcon, FileBarChartIcon, GavelIcon, LayersIcon, ShieldAlertIcon, UserCheckIcon } from "lucide-react";
import {
  CtaBand,
  type Feature,
  FeatureGrid,
  PageHero,
  REQUEST_DEMO,
  Section,
  StatList,
} from "@/features/marketing/components/page-parts";

const FEATURES: Feature[] = [
  {
    icon: GavelIcon,
    title: "Rules per project",
    text: "Decide, per commitment, which milestones release capital, how much each releases and what evidence it needs.",
  },
  {
    icon: UserCheckIcon,
    title: "Verifiers you appoint",
    text: "Independent verification is required, not optional, and the verifier is yours to choose, not the sponsor's.",
  },
  {
    icon: EyeIcon,
    title: "Portfolio oversight",
    text: "Capital deployed, remaining and at risk across all managers and projects, live rather than quarterly.",
  },
  {
    icon: ShieldAlertIcon,
    title: "Early warning",
    text: "A rejected, delayed or overdue milestone flags its project at risk the same day, before more capital moves.",
  },
  {
    icon: FileBarChartIcon,
    title: "Committee-ready reporting",
    text: "Reports for investment committees and trustees built from the verified record, not from sponsor decks.",
  },
  {
    icon: LayersIcon,
    title: "Works with your managers",
    text: "General partners and sponsors use Tranche as project owners; you keep the rules and the oversight.",
  },
];

export default function InstitutionalPartnersPage() {
  return (
    <main id="main">
      <PageHero
        eyebrow="Governance Infrastructure"
        title="Oversight that limited partners can act on"
        lead={
          <p>
            Tranche gives institutional investors the rules, the independent checks and the record to govern how their
            commitments are deployed — without taking custody or slowing good projects down.
          </p>
        }
        primary={REQUEST_DEMO}
      />
      <Section id="governance" title="Governance built into the flow of capital">
        <FeatureGrid features={FEATURES} />
      </Section>
      <Section id="outcomes" tone="muted" title="What the platform holds for you">
        <StatList
          stats={[
            { value: "Every", label: "release names the verifiers' approvals that made it" },
            { value: "1", label: "release per milestone and verification round, never a duplicate" },
            { value: "Same day", label: "a rejected, delayed or overdue milestone flags its project at risk" },
            { value: "1 command", label: "re-checks the whole audit chain and its signed checkpoints" },
          ]}
        />
        <p className="mt-4 text-sm text-slate-600">
          Held by the product itself, not reported: the database refuses a release without its approvals or a second one
          for the same round, and <code>audit verify</code> names any row changed since.
        </p>
      </Section>
      <CtaBand
        title="Bring verified milestones to your next commitment"
        text="We will model one of your existing commitments in Tranche during the demo."
        secondary={{ to: "/case-studies", label: "Read case studies" }}
      />
    </main>
  );
}
