import { DatabaseIcon, GlobeIcon, KeyRoundIcon, LifeBuoyIcon, ScrollTextIcon, ServerCogIcon } from "lucide-react";
import {
  CheckList,
  CtaBand,
  type Feature,
  FeatureGrid,
  PageHero,
  REQUEST_DEMO,
  Section,
} from "@/features/marketing/components/page-parts";

const CONTROLS: Feature[] = [
  {
    icon: KeyRoundIcon,
    title: "Single sign-on",
    text: "Sign-in through your identity provider is on the roadmap. Today: passkeys or an authenticator app as a second factor, and sessions you can revoke.",
  },
  {
    icon: DatabaseIcon,
    title: "Your own database",
    text: "Run Tranche against your PostgreSQL, so the record of every release lives in infrastructure you control.",
  },
  {
    icon: GlobeIcon,
    title: "Data residency",
    text: "Hosting in the EU, the UK or Singapore, with evidence files kept in the same region as the record.",
  },
  {
    icon: ScrollTextIcon,
    title: "Audit exports",
    text: "The complete hash-chained log and evidence manifest, exportable for your auditors on demand.",
  },
  {
    icon: ServerCogIcon,
    title: "Scales horizontally",
    text: "Stateless servers behind your load balancer: sessions, limits and live updates are shared through the database.",
  },
  {
    icon: LifeBuoyIcon,
    title: "Service levels",
    text: "99.9% availability commitment, a named technical account manager and a four-hour response for severity-one issues.",
  },
];

export default function EnterprisePage() {
  return (
    <main id="main">
      <PageHero
        eyebrow="Enterprise"
        title="Milestone governance at institutional scale"
        lead={
          <p>
            For pension funds, sovereign funds and development finance institutions that need Tranche inside their own
            controls: identity, infrastructure, residency and audit.
          </p>
        }
        primary={REQUEST_DEMO}
      />
      <Section id="controls" title="Controls your risk team will ask for">
        <FeatureGrid features={CONTROLS} />
      </Section>
      <Section
        id="included"
        tone="muted"
        title="Everything included"
        intro="Enterprise includes every capability of the platform, with no add-ons to negotiate later."
      >
        <div className="grid gap-8 lg:grid-cols-2">
          <CheckList
            items={[
              {
                lead: "Automatic evidence checks:",
                text: "document fields read, and edited files and reused photos flagged, on every evidence file.",
              },
              { lead: "Verifier network:", text: "vetted engineers and auditors in more than 30 countries." },
            ]}
          />
          <CheckList
            items={[
              {
                lead: "Onboarding:",
                text: "a four-to-six-week programme, including custodian integration and training.",
              },
              {
                lead: "Security review:",
                text: "our security documentation, penetration test summaries and a call with our engineers.",
              },
              {
                lead: "Contract:",
                text: "an annual agreement with a data processing addendum and your jurisdiction's law.",
              },
            ]}
          />
        </div>
      </Section>
      <CtaBand
        title="Plan an enterprise deployment"
        text="We will start with your governance requirements and map them to Tranche's controls."
        secondary={{ to: "/pricing", label: "Compare plans" }}
      />
    </main>
  );
}
