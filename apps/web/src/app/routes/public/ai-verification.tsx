// The evidence checks as they are, with the figures `npm run bench:evidence` measured (bench/results/
// evidence-checks.json): a test fails when a percentage here is not one that run produced, or the date is not its
// date. Smart contract disbursements are not built: they are on the roadmap, and said so.
import { Link } from "react-router";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { CheckList, PageHero, StatList } from "@/features/marketing/components/page-parts";
import { RequestForm } from "@/features/public-requests/components/request-form";

/** The day of the bench run the figures below come from. */
export const MEASURED_ON = "2026-11-26";

export default function AiVerificationPage() {
  return (
    <main id="main">
      <PageHero
        eyebrow="Advanced features"
        title="Automatic evidence checks, measured"
        lead={
          <p>
            Every uploaded file is read and screened in the background before a verifier opens it: documents' fields are
            extracted, photos are compared with every other on the platform, and files are looked at for signs of
            editing. People still make the decision.
          </p>
        }
      />
      <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
        <Tabs defaultValue="ai">
          <TabsList
            aria-label="Advanced features"
            className="grid h-auto w-full grid-cols-2 bg-slate-200 sm:inline-flex sm:w-auto"
          >
            <TabsTrigger value="ai" className="px-2 py-2 whitespace-normal text-slate-700 sm:px-5">
              AI Verification
            </TabsTrigger>
            <TabsTrigger value="contracts" className="px-2 py-2 whitespace-normal text-slate-700 sm:px-5">
              Smart Contract Disbursements
            </TabsTrigger>
          </TabsList>

          <TabsContent value="ai" className="mt-8">
            <div className="grid gap-10 lg:grid-cols-2">
              <div>
                <h2 className="text-3xl font-semibold tracking-tight text-slate-900">
                  Evidence read, cross-checked and screened on every upload
                </h2>
                <p className="mt-4 text-lg leading-relaxed text-slate-600">
                  From invoices, certificates and inspection reports — text PDFs, and scans or photos of paper read by
                  OCR — the checks extract the kind of document, its issuer, number, date, total and currency. They flag
                  an invoice total beyond the milestone's amount, a date outside its window, a document number seen
                  before, a photo that matches evidence elsewhere, any file submitted before to another milestone byte
                  for byte (an old invoice, another project's video), and files whose metadata or revisions show an
                  edit. Each flag explains itself in a sentence; a verifier can dismiss it with a reason.
                </p>
                <p className="mt-4 rounded-md border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-900">
                  The checks run on every upload, in every plan.
                </p>
              </div>
              <div>
                <h3 className="font-semibold text-slate-900">What we measured</h3>
                <div className="mt-4">
                  <CheckList
                    items={[
                      { lead: "100% of fields read right", text: "on text PDFs (540 fields in 90 documents)." },
                      {
                        lead: "99.2% of fields read right",
                        text: "on photographed paper (240 fields in 40 documents).",
                      },
                      {
                        lead: "100% of fields read right",
                        text: "on scans saved as PDF, with no text layer (120 fields in 20 documents).",
                      },
                      {
                        lead: "100% of altered files caught",
                        text: "(55 files: PDFs revised or re-saved by an editor, photos saved by an editor or stripped of their metadata), with 0% raised on 30 clean files.",
                      },
                      {
                        lead: "97.5% of reused photos found",
                        text: "when re-encoded, resized, slightly cropped or recoloured (160 copies), with 0% false matches among look-alikes.",
                      },
                      {
                        lead: "0.4 seconds per file on average",
                        text: "(1.4 s at the 95th percentile), on two CPU cores.",
                      },
                    ]}
                  />
                </div>
              </div>
            </div>
            <div className="mt-10">
              <StatList
                stats={[
                  { value: "100%", label: "Fields read right, text PDFs" },
                  { value: "99.2%", label: "Fields read right, photographed paper" },
                  { value: "100%", label: "Altered files caught" },
                  { value: "97.5%", label: "Reused photos found" },
                ]}
              />
            </div>
            <p className="mt-6 text-sm text-slate-600">
              Measured on {MEASURED_ON} with <code>npm run bench:evidence</code>: a labelled corpus of 475 files
              generated from a fixed seed (documents in several layouts and wordings — as text PDFs, photographed and
              scanned — photographed with rotation, blur, noise and compression; photo copies and look-alikes; PDFs and
              photos altered the way editors alter them), checked one file at a time by the same code the server runs.
              These are figures on generated files, not on your documents; we publish them so they can be re-run.
            </p>
          </TabsContent>

          <TabsContent value="contracts" className="mt-8">
            <div className="grid gap-10 lg:grid-cols-2">
              <div>
                <h2 className="text-3xl font-semibold tracking-tight text-slate-900">On the roadmap, not built yet</h2>
                <p className="mt-4 text-lg leading-relaxed text-slate-600">
                  Today a verified milestone's release is created exactly once and its instruction reaches your
                  custodian as a signed webhook (a retry keeps its id), and the custodian executes it. Executing
                  releases with a smart contract that holds the tranche in escrow is planned; no plan includes it yet.
                </p>
                <p className="mt-4 rounded-md border border-slate-200 bg-slate-50 p-4 text-sm text-slate-700">
                  Smart contract disbursements are on the <Link to="/roadmap">roadmap</Link>.
                </p>
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
              See the evidence checks on one of your own milestones. Or compare{" "}
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
