import { Link } from "react-router";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { CheckList, PageHero, StatList } from "@/features/marketing/components/page-parts";
import { RequestForm } from "@/features/public-requests/components/request-form";

export default function AiVerificationPage() {
  return (
    <main id="main">
      <PageHero
        eyebrow="Advanced features"
        title="AI verification and smart contract disbursements"
        lead={
          <p>
            Two capabilities that make verified releases faster without making them less independent: machines read and
            check the evidence, people make the decision, and the release executes itself.
          </p>
        }
      />
      <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
        <Tabs defaultValue="ai">
          <TabsList
            aria-label="Advanced features"
            className="grid h-auto w-full grid-cols-2 bg-slate-200 sm:inline-flex sm:w-auto"
          >
            <TabsTrigger value="ai" className="px-5 py-2 whitespace-normal text-slate-700">
              AI Verification
            </TabsTrigger>
            <TabsTrigger value="contracts" className="px-5 py-2 whitespace-normal text-slate-700">
              Smart Contract Disbursements
            </TabsTrigger>
          </TabsList>

          <TabsContent value="ai" className="mt-8">
            <div className="grid gap-10 lg:grid-cols-2">
              <div>
                <h2 className="text-3xl font-semibold tracking-tight text-slate-900">
                  Evidence read, cross-checked and screened in seconds
                </h2>
                <p className="mt-4 text-lg leading-relaxed text-slate-600">
                  AI verification extracts amounts, dates, parties and certifications from invoices, permits and
                  inspection reports, compares them with the milestone, and screens every file for signs of tampering —
                  before the verifier opens it. The verifier still decides.
                </p>
                <p className="mt-4 rounded-md border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-900">
                  AI verification is included in Enterprise plans and available as an add-on for Premium.
                </p>
              </div>
              <div>
                <h3 className="font-semibold text-slate-900">Benefits</h3>
                <div className="mt-4">
                  <CheckList
                    items={[
                      { lead: "98.3% extraction accuracy", text: "on invoices, certificates and inspection reports." },
                      { lead: "70% less processing time", text: "for verifiers, who start from a pre-checked file." },
                      { lead: "95% tamper detection", text: "for edited images, altered PDFs and reused photos." },
                      { lead: "Every finding explained", text: "and recorded with the milestone for the audit trail." },
                    ]}
                  />
                </div>
              </div>
            </div>
            <div className="mt-10">
              <StatList
                stats={[
                  { value: "98%", label: "Extraction accuracy" },
                  { value: "70%", label: "Less processing time" },
                  { value: "95%", label: "Tamper detection" },
                  { value: "Minutes", label: "From approval to capital release" },
                ]}
              />
            </div>
          </TabsContent>

          <TabsContent value="contracts" className="mt-8">
            <div className="grid gap-10 lg:grid-cols-2">
              <div>
                <h2 className="text-3xl font-semibold tracking-tight text-slate-900">
                  Capital releases within minutes of verification
                </h2>
                <p className="mt-4 text-lg leading-relaxed text-slate-600">
                  Where your custodian supports it, the release instruction for a verified milestone is executed by a
                  smart contract that holds the tranche in escrow. The contract pays out only on Tranche's signed
                  verification, exactly once, and its execution is linked back to the milestone's record.
                </p>
                <p className="mt-4 rounded-md border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-900">
                  Smart contract disbursements are included in Premium and Enterprise plans.
                </p>
              </div>
              <div>
                <h3 className="font-semibold text-slate-900">How it works</h3>
                <ol className="mt-4 grid list-decimal gap-3 pl-5 text-slate-700">
                  <li>The custodian funds an escrow contract for the project's milestones.</li>
                  <li>The assigned verifier approves a milestone in Tranche.</li>
                  <li>Tranche signs the verification; the contract checks the signature and releases that tranche.</li>
                  <li>The transaction reference is written to the milestone's audit record.</li>
                </ol>
              </div>
            </div>
          </TabsContent>
        </Tabs>

        <section
          aria-labelledby="ai-demo-title"
          className="mt-16 grid gap-6 rounded-xl bg-navy-950 p-6 text-white sm:p-10 lg:grid-cols-2 lg:items-center"
        >
          <div>
            <h2 id="ai-demo-title" className="text-2xl font-semibold tracking-tight">
              Request Demo
            </h2>
            <p className="mt-2 text-slate-300">
              See AI verification and smart contract disbursements on one of your own milestones. Or compare{" "}
              <Link to="/pricing" className="font-medium text-white underline underline-offset-4">
                plans
              </Link>
              .
            </p>
          </div>
          <div className="rounded-lg bg-white p-5 text-slate-900">
            <RequestForm
              kind="demo"
              source="/ai-verification"
              compact
              submitLabel="Request Demo"
              receivedText="Thank you. We'll contact you within one business day to arrange your demo."
              fields={[
                { name: "email", label: "Work email", autoComplete: "email", placeholder: "you@organisation.com" },
              ]}
            />
          </div>
        </section>
      </div>
    </main>
  );
}
