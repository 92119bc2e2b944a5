import { CalendarClockIcon, MailIcon, ShieldCheckIcon } from "lucide-react";
import { CheckList, PageHero } from "@/features/marketing/components/page-parts";
import { RequestForm } from "@/features/public-requests/components/request-form";

export default function ContactPage() {
  return (
    <main id="main">
      <PageHero
        eyebrow="Request Demo"
        title="See Tranche with your own project structure"
        lead={
          <p>
            Tell us a little about your portfolio. A product specialist will walk you through milestones, verifier
            assignment, the audit record and the custodian instruction in 30 minutes.
          </p>
        }
      />
      <div className="mx-auto grid max-w-7xl gap-12 px-4 py-16 sm:px-6 lg:grid-cols-[1fr_22rem]">
        <section
          aria-labelledby="demo-form-title"
          className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
        >
          <h2 id="demo-form-title" className="text-xl font-semibold text-slate-900">
            Request a demo
          </h2>
          <p className="mt-1 mb-6 text-sm text-slate-600">We reply within one business day.</p>
          <RequestForm
            kind="demo"
            source="/contact"
            submitLabel="Request Demo"
            receivedText="Thank you. A product specialist will contact you within one business day to arrange a time."
            fields={[
              { name: "name", label: "Full name", required: true, autoComplete: "name" },
              { name: "email", label: "Work email", autoComplete: "email", placeholder: "you@organisation.com" },
              { name: "organization", label: "Organization", required: true, autoComplete: "organization" },
              {
                name: "message",
                label: "What would you like to see?",
                multiline: true,
                placeholder: "For example: 12 infrastructure projects, milestones released through an escrow agent.",
              },
            ]}
          />
        </section>
        <aside aria-label="What happens next" className="grid content-start gap-8">
          <div>
            <h2 className="text-base font-semibold text-slate-900">What happens next</h2>
            <div className="mt-4 text-sm">
              <CheckList
                items={[
                  { lead: "Within a day:", text: "we confirm a time that suits your investment and operations teams." },
                  { lead: "In the demo:", text: "a live project taken from commitment to its first verified release." },
                  { lead: "Afterwards:", text: "a sandbox with demo accounts for each role, and a pricing proposal." },
                ]}
              />
            </div>
          </div>
          <ul className="grid gap-4 text-sm text-slate-700">
            <li className="flex gap-3">
              <MailIcon className="size-5 shrink-0 text-accent" aria-hidden />
              <span>
                Prefer e-mail?{" "}
                <a className="font-medium text-blue-700 underline" href="mailto:hello@tranche.capital">
                  hello@tranche.capital
                </a>
              </span>
            </li>
            <li className="flex gap-3">
              <CalendarClockIcon className="size-5 shrink-0 text-accent" aria-hidden />
              <span>Demos run Monday to Friday, 8:00–18:00 UK time, and by arrangement for Asia-Pacific.</span>
            </li>
            <li className="flex gap-3">
              <ShieldCheckIcon className="size-5 shrink-0 text-accent" aria-hidden />
              <span>We use your details only to arrange the demo. See our privacy notice.</span>
            </li>
          </ul>
        </aside>
      </div>
    </main>
  );
}
