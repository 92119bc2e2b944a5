import { BellRingIcon, CameraIcon, ClipboardListIcon, FingerprintIcon, MapPinIcon, WifiOffIcon } from "lucide-react";
import { Link } from "react-router";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import {
  CheckList,
  CtaBand,
  type Feature,
  FeatureGrid,
  PageHero,
  Section,
  secondaryButtonDark,
} from "@/features/marketing/components/page-parts";
import { RequestForm } from "@/features/public-requests/components/request-form";

const FEATURES: Feature[] = [
  {
    icon: WifiOffIcon,
    title: "Offline verification",
    text: "Work through a milestone's checklist on a site with no signal; everything syncs, in order, when you are back online.",
  },
  {
    icon: CameraIcon,
    title: "Evidence capture",
    text: "Photos, video and documents captured in the app are hashed on the device, so the file you took is the file reviewed.",
  },
  {
    icon: FingerprintIcon,
    title: "Biometric security",
    text: "Sign in with your fingerprint or face (a passkey); the server accepts an approval or rejection only within 12 hours of a passkey or authenticator check.",
  },
  {
    icon: MapPinIcon,
    title: "GPS location tagging",
    text: "Each capture records where and when it was taken, and flags evidence gathered away from the project's site.",
  },
  {
    icon: BellRingIcon,
    title: "Priority notifications",
    text: "New assignments, resubmissions and milestones close to their due date reach you first, ordered by urgency.",
  },
  {
    icon: ClipboardListIcon,
    title: "Milestone checklists",
    text: "The same six checks as the web platform, with notes per item and the project's documents one tap away.",
  },
];

const TABS = [
  {
    value: "field",
    label: "Field",
    title: "Built for the site visit",
    text: "Verifiers spend their days on construction sites, farms and clinics, not at desks. The app puts the assignment, the evidence already submitted and the checklist in one place, and lets you record what you see as you see it.",
    points: [
      "Today's assignments with directions to each site",
      "Compare submitted photos with what is on the ground",
      "Record findings per checklist item, with photos attached",
    ],
  },
  {
    value: "offline",
    label: "Offline",
    title: "No signal, no problem",
    text: "A verification started offline is stored encrypted on the device and sent when a connection returns. Nothing is decided until the server has the full record, so an offline approval can never release capital twice.",
    points: [
      "Full checklist and evidence capture without a connection",
      "Automatic, ordered sync with conflict warnings",
      "Clear status of what is still waiting to upload",
    ],
  },
  {
    value: "security",
    label: "Security",
    title: "As strict as the web platform",
    text: "The app enforces the same permissions as Tranche's server: you see only milestones assigned to you, and you can never verify a project you own or invest in.",
    points: [
      "A passkey or authenticator check within 12 hours of every approve or reject",
      "Sessions and passkeys you can revoke from the web",
      "Evidence hashed on capture and checked again on upload",
    ],
  },
] as const;

export default function VerifierAppPage() {
  return (
    <main id="main">
      <PageHero
        eyebrow="Tranche Verifier, installable on iOS and Android"
        title="Verify milestones where the work happens"
        lead={
          <p>
            The verifier app takes Tranche's independent checks to the site: offline checklists, evidence captured and
            hashed on the spot, and decisions that need a recent passkey or authenticator check.
          </p>
        }
        aside={
          <div className="rounded-xl bg-white p-6 text-slate-900 shadow-2xl">
            <h2 className="text-lg font-semibold">Request Early Access</h2>
            <p className="mt-1 mb-4 text-sm text-slate-600">The app opens to network verifiers first, in waves.</p>
            <RequestForm
              kind="early_access"
              source="/verifier-app"
              compact
              submitLabel="Request Early Access"
              receivedText="You're on the list. We'll e-mail you when your early-access invitation is ready."
              fields={[{ name: "email", label: "Work email", autoComplete: "email", placeholder: "you@firm.com" }]}
            />
          </div>
        }
      >
        <Link to="/become-verifier" className={secondaryButtonDark}>
          Become a verifier
        </Link>
      </PageHero>

      <Section id="app-features" title="Everything a verifier needs in the field">
        <FeatureGrid features={FEATURES} />
      </Section>

      <Section id="app-tabs" tone="muted" title="Designed around how verification really happens">
        <Tabs defaultValue="field">
          <TabsList aria-label="Verifier app topics" className="bg-slate-200">
            {TABS.map((tab) => (
              <TabsTrigger key={tab.value} value={tab.value} className="px-5 text-slate-700">
                {tab.label}
              </TabsTrigger>
            ))}
          </TabsList>
          {TABS.map((tab) => (
            <TabsContent key={tab.value} value={tab.value} className="mt-6">
              <div className="grid gap-8 rounded-xl border border-slate-200 bg-white p-6 sm:p-8 lg:grid-cols-2">
                <div>
                  <h3 className="text-xl font-semibold text-slate-900">{tab.title}</h3>
                  <p className="mt-3 leading-relaxed text-slate-600">{tab.text}</p>
                </div>
                <CheckList items={tab.points} />
              </div>
            </TabsContent>
          ))}
        </Tabs>
      </Section>

      <CtaBand
        title="Verify for Tranche's clients"
        text="Engineers, auditors and field inspectors: join the network that institutional investors rely on."
        primary={{ to: "/become-verifier", label: "Become a verifier" }}
      />
    </main>
  );
}
