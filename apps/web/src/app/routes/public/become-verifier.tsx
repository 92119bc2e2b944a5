import { BadgeCheckIcon, BanknoteIcon, CalendarCheckIcon, GlobeIcon } from "lucide-react";
import { CheckList, type Feature, FeatureGrid, PageHero, Section } from "@/features/marketing/components/page-parts";
import { RequestForm } from "@/features/public-requests/components/request-form";

const WHY: Feature[] = [
  {
    icon: BanknoteIcon,
    title: "Set your own rates",
    text: "Publish your day rate; clients see it before they assign you, and pay you directly.",
  },
  {
    icon: CalendarCheckIcon,
    title: "Work when it suits you",
    text: "Accept the assignments that fit your calendar and your expertise. Decline without penalty.",
  },
  {
    icon: GlobeIcon,
    title: "Institutional clients",
    text: "Pension funds, development finance institutions and endowments in more than 30 countries.",
  },
  {
    icon: BadgeCheckIcon,
    title: "A record of your work",
    text: "Every verification you complete is on the record, building a verifiable track record.",
  },
];

export default function BecomeVerifierPage() {
  return (
    <main id="main">
      <PageHero
        eyebrow="Become a verifier"
        title="Independent judgement, paid for and on the record"
        lead={
          <p>
            Tranche's clients release capital only when a qualified, independent professional has checked the work. If
            that is you, apply to join the verifier network.
          </p>
        }
      />
      <Section id="why" title="Why verifiers join Tranche">
        <FeatureGrid features={WHY} columns={2} />
      </Section>
      <Section id="apply" tone="muted" title="Apply to the network">
        <div className="grid gap-10 lg:grid-cols-[1fr_24rem]">
          <section
            aria-labelledby="apply-form-title"
            className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
          >
            <h3 id="apply-form-title" className="mb-6 text-lg font-semibold text-slate-900">
              Partner application
            </h3>
            <RequestForm
              kind="verifier_partner"
              source="/become-verifier"
              submitLabel="Apply to become a verifier"
              receivedText="Thanks for your interest! We'll contact you shortly about becoming a verified partner."
              fields={[
                { name: "name", label: "Full name", required: true, autoComplete: "name" },
                { name: "email", label: "Email", autoComplete: "email" },
                { name: "organization", label: "Firm or professional body", autoComplete: "organization" },
                {
                  name: "message",
                  label: "Your expertise",
                  multiline: true,
                  placeholder:
                    "For example: chartered civil engineer, 12 years on renewable energy sites in East Africa.",
                },
              ]}
            />
          </section>
          <div>
            <h3 className="font-semibold text-slate-900">What we look for</h3>
            <div className="mt-4 text-sm">
              <CheckList
                items={[
                  "A recognised professional qualification (engineering, audit, surveying, inspection or similar)",
                  "At least five years' experience in the sector you will verify",
                  "Professional indemnity insurance",
                  "No conflicts of interest with the projects you accept",
                ]}
              />
            </div>
            <h3 className="mt-8 font-semibold text-slate-900">How it works</h3>
            <ol className="mt-4 grid list-decimal gap-2 pl-5 text-sm text-slate-700">
              <li>Apply with this form.</li>
              <li>A 30-minute call and a check of your qualifications and references.</li>
              <li>A paid trial verification alongside an experienced verifier.</li>
              <li>Your profile goes live to clients in your regions and sectors.</li>
            </ol>
          </div>
        </div>
      </Section>
    </main>
  );
}
