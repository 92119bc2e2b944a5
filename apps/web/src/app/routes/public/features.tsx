import { CHECKLIST_ITEMS } from "@tranche/domain/constants";
import {
  ActivityIcon,
  BellRingIcon,
  BuildingIcon,
  ClipboardCheckIcon,
  FileCheck2Icon,
  FingerprintIcon,
  HardHatIcon,
  LandmarkIcon,
  ScaleIcon,
  ServerIcon,
  UserCheckIcon,
  UsersIcon,
} from "lucide-react";
import {
  CheckList,
  CtaBand,
  type Feature,
  FeatureGrid,
  PageHero,
  REQUEST_DEMO,
  Section,
} from "@/features/marketing/components/page-parts";

const ROLES: Feature[] = [
  {
    icon: LandmarkIcon,
    title: "Investors",
    text: "A portfolio-wide control centre: capital committed, released and remaining per project, with every at-risk milestone flagged.",
  },
  {
    icon: BuildingIcon,
    title: "Project owners",
    text: "Define projects and milestones with capital amounts, upload evidence, and resubmit quickly when a verifier asks for more.",
  },
  {
    icon: HardHatIcon,
    title: "Verifiers",
    text: "A queue of assigned milestones, a structured checklist, the evidence in one place, and approve or reject with comments.",
  },
  {
    icon: UsersIcon,
    title: "Administrators",
    text: "Manage users and roles, assign verifiers and investors to projects, and configure custodian integrations.",
  },
];

const PLATFORM: Feature[] = [
  {
    icon: ClipboardCheckIcon,
    title: "Milestone state machine",
    text: "Pending, in verification, verified, rejected or delayed — enforced by the server, so no screen can skip a step.",
  },
  {
    icon: FileCheck2Icon,
    title: "Content-addressed evidence",
    text: "Uploads are streamed to storage under their SHA-256; hash, size, type, uploader and time are shown with every file.",
  },
  {
    icon: ActivityIcon,
    title: "Hash-chained audit log",
    text: "Every state change is appended with actor, before and after. Each row carries the previous row's hash.",
  },
  {
    icon: BellRingIcon,
    title: "Live notifications",
    text: "Owners, investors and verifiers see decisions the moment they are made, pushed live to the app.",
  },
  {
    icon: ScaleIcon,
    title: "Separation of duties",
    text: "Verifiers cannot check projects they own or invest in; owners cannot mark their own milestones verified.",
  },
  {
    icon: ServerIcon,
    title: "Runs where you need it",
    text: "Our cloud, or your own PostgreSQL: the same product, with sessions and limits shared across servers.",
  },
];

export default function FeaturesPage() {
  return (
    <main id="main">
      <PageHero
        eyebrow="Verification Platform"
        title="Independent checks before every release of capital"
        lead={
          <p>
            Tranche gives each party to a project exactly the part of the workflow that is theirs: investors set the
            rules, owners show the work, verifiers decide, and custodians receive one clear instruction.
          </p>
        }
        primary={REQUEST_DEMO}
      />

      <Section
        id="roles"
        title="One workflow, four roles"
        intro="Each role sees what it needs and may do only what it should."
      >
        <FeatureGrid features={ROLES} columns={2} />
      </Section>

      <Section
        id="checklist"
        tone="muted"
        eyebrow="Verification"
        title="The same six checks on every milestone"
        intro="Verifiers record each check with the milestone, together with their report and comments. A rejection always carries a reason the owner can act on."
      >
        <div className="grid gap-10 lg:grid-cols-2">
          <ol className="grid gap-3">
            {CHECKLIST_ITEMS.map((item, index) => (
              <li key={item.key} className="flex items-center gap-4 rounded-lg border border-slate-200 bg-white p-4">
                <span className="inline-flex size-8 shrink-0 items-center justify-center rounded-full bg-emerald-50 text-sm font-semibold text-accent">
                  {index + 1}
                </span>
                <span className="font-medium text-slate-800">{item.label}</span>
              </li>
            ))}
          </ol>
          <div className="rounded-lg border border-slate-200 bg-white p-6">
            <h3 className="flex items-center gap-2 font-semibold text-slate-900">
              <UserCheckIcon className="size-5 text-accent" aria-hidden /> What a decision does
            </h3>
            <div className="mt-4">
              <CheckList
                items={[
                  {
                    lead: "Approve:",
                    text: "the milestone is verified, its release is recorded once, and the custodian is instructed.",
                  },
                  {
                    lead: "Reject:",
                    text: "capital is withheld and the project is flagged at risk until the owner resubmits.",
                  },
                  {
                    lead: "Delay:",
                    text: "work paused for a known reason can be resumed by the verifier without starting over.",
                  },
                  {
                    lead: "Verified is final:",
                    text: "a verified milestone cannot be edited, deleted or verified again.",
                  },
                ]}
              />
            </div>
          </div>
        </div>
      </Section>

      <Section id="platform" title="Built for the record, not just the screen">
        <FeatureGrid features={PLATFORM} />
      </Section>

      <section aria-labelledby="security-title" className="bg-slate-50">
        <div className="mx-auto grid max-w-7xl gap-8 px-4 py-16 sm:px-6 lg:grid-cols-2">
          <div>
            <h2 id="security-title" className="text-3xl font-semibold tracking-tight text-slate-900">
              Security as a default
            </h2>
            <p className="mt-4 text-lg text-slate-600">
              Sessions live in httpOnly cookies, weak and common passwords are refused, sign-in attempts are
              rate-limited across servers, and every request the server refuses says why.
            </p>
          </div>
          <ul className="grid gap-3 self-center text-slate-700">
            <li className="flex gap-3">
              <FingerprintIcon className="size-5 shrink-0 text-accent" aria-hidden /> Sessions that expire when idle and
              can be revoked
            </li>
            <li className="flex gap-3">
              <ScaleIcon className="size-5 shrink-0 text-accent" aria-hidden /> Permissions enforced on every call, not
              just hidden in the interface
            </li>
            <li className="flex gap-3">
              <FileCheck2Icon className="size-5 shrink-0 text-accent" aria-hidden /> Records you can verify yourself:
              the audit chain and evidence hashes
            </li>
          </ul>
        </div>
      </section>

      <CtaBand
        title="Put your next commitment on verified milestones"
        text="Start with one project. Most teams see their first verified release within two weeks."
        secondary={{ to: "/pricing", label: "See pricing" }}
      />
    </main>
  );
}
