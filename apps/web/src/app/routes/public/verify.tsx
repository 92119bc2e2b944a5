import { FileCheck2Icon, LockIcon, UserCheckIcon } from "lucide-react";
import { useParams } from "react-router";
import { CheckList, CtaBand, IconCards, PageHero, Section } from "@/features/marketing/components/page-parts";

const VERIFICATION = [
  {
    icon: UserCheckIcon,
    title: "A verifier with no stake",
    text: "The verifier is appointed for the project and cannot own or invest in it. Nobody approves their own work.",
  },
  {
    icon: FileCheck2Icon,
    title: "Evidence that cannot change",
    text: "Each evidence file is recorded with its SHA-256 hash, so anyone can later check it is the file reviewed.",
  },
  {
    icon: LockIcon,
    title: "Capital released once",
    text: "Approval records a single release for the milestone; a rejection withholds the capital until resubmission.",
  },
];

/**
 * /verify/{milestoneId}: where a link to a milestone leads someone outside Tranche. It explains independent
 * verification and shows no project data: the milestone's details are only for the project's members.
 */
export default function VerifyLandingPage() {
  const { milestoneId = "" } = useParams();
  return (
    <main id="main">
      <PageHero
        eyebrow="Milestone verification"
        title="Milestones in Tranche are verified independently before capital moves"
        lead={
          <>
            <p>
              You followed a link to a milestone managed in Tranche. Its details — amounts, evidence and the verifier's
              decision — are visible only to the project's owners, investors and assigned verifiers.
            </p>
            <p className="mt-4 text-sm text-slate-400">
              Milestone reference: <span className="break-all font-mono text-slate-200">{milestoneId}</span>
            </p>
          </>
        }
        primary={{
          to: `/login?next=${encodeURIComponent(`/milestones/${milestoneId}`)}`,
          label: "Sign in to view this milestone",
        }}
        secondary={{ to: "/features", label: "How verification works" }}
      />
      <Section id="what-it-means" title="What independent verification means">
        <IconCards items={VERIFICATION} columns={3} />
      </Section>
      <Section id="check" tone="muted" title="Were you asked to confirm a release?">
        <div className="max-w-3xl">
          <CheckList
            items={[
              {
                lead: "Custodians and escrow agents:",
                text: "confirm instructions through your Tranche integration, never from a link alone.",
              },
              {
                lead: "Auditors:",
                text: "ask the project's investor for an audit export, which includes the hash chain and evidence manifest.",
              },
              {
                lead: "Anyone else:",
                text: "Tranche staff will never ask you for a password or a payment through a verification link.",
              },
            ]}
          />
        </div>
      </Section>
      <CtaBand
        title="Govern your own commitments this way"
        text="See how limited partners use Tranche to release capital only against verified milestones."
      />
    </main>
  );
}
