import { CoinsIcon, FileSearchIcon, LandmarkIcon, TrendingDownIcon } from "lucide-react";
import {
  CheckList,
  CtaBand,
  type Feature,
  FeatureGrid,
  PageHero,
  REQUEST_DEMO,
  Section,
} from "@/features/marketing/components/page-parts";

const HOW: Feature[] = [
  {
    icon: TrendingDownIcon,
    title: "The problem",
    text: "Capital waiting for its milestone in a high-inflation currency can lose a fifth of its value before it is released.",
  },
  {
    icon: LandmarkIcon,
    title: "Held by your custodian",
    text: "Undisbursed tranches are held by a partner custodian in allocated, vaulted gold or fully gold-backed instruments.",
  },
  {
    icon: CoinsIcon,
    title: "Converted at release",
    text: "When a milestone is verified, the custodian converts that tranche to the project's currency and pays it out.",
  },
  {
    icon: FileSearchIcon,
    title: "Attested reserves",
    text: "Monthly reserve attestations from the vault operator are attached to the project's record in Tranche.",
  },
];

export default function GoldBackedProtectionPage() {
  return (
    <main id="main">
      <PageHero
        eyebrow="Gold-backed protection"
        title="Protect capital while it waits for its milestone"
        lead={
          <p>
            For projects in volatile-currency markets, the capital you have committed but not yet released can be held
            in gold by a partner custodian, so verified progress is paid for in full value.
          </p>
        }
        primary={REQUEST_DEMO}
      />
      <Section id="how" title="How it works">
        <FeatureGrid features={HOW} columns={2} />
      </Section>
      <Section id="terms" tone="muted" title="What to know before you choose it">
        <div className="max-w-3xl">
          <CheckList
            items={[
              {
                lead: "Tranche never holds the gold.",
                text: "Custody, insurance and conversion are the custodian's, under your agreement with them.",
              },
              {
                lead: "Gold prices move too.",
                text: "The protection is against local-currency depreciation; the gold price itself can fall.",
              },
              {
                lead: "Costs are shown up front.",
                text: "Vaulting, insurance and conversion spreads are quoted before you enable it for a project.",
              },
              {
                lead: "Per project, not all or nothing.",
                text: "Enable it only for the commitments where currency risk matters.",
              },
            ]}
          />
        </div>
      </Section>
      <CtaBand
        title="Working in a high-inflation market?"
        text="We will show you what gold-backed protection would have meant for a past commitment of yours."
        secondary={{ to: "/case-studies", label: "See the education case study" }}
      />
    </main>
  );
}
