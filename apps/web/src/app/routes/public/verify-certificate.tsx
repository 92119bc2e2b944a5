import { useQuery } from "@tanstack/react-query";
import {
  type CertificateCheckDto,
  type CertificateFacts,
  capturedByWords,
  formatCoordinates,
  formatDistance,
} from "@tranche/domain";
import { CircleCheckIcon, CircleXIcon } from "lucide-react";
import { type FormEvent, useState } from "react";
import { flushSync } from "react-dom";
import { useSearchParams } from "react-router";
import { Field, Input } from "@/components/ui/input";
import { PageHero, primaryButton, Section } from "@/features/marketing/components/page-parts";
import { ApiError, api } from "@/lib/api-client";
import { focusField } from "@/lib/focus-field";
import { useHydrated } from "@/lib/use-hydrated";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SHA256 = /^[0-9a-f]{64}$/i;

const when = (iso: string) =>
  `${new Date(iso).toLocaleString("en-US", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" })} UTC`;
const party = (p: { name: string; organization: string | null }) =>
  p.organization ? `${p.name}, ${p.organization}` : p.name;

/**
 * /verify?release=…&hash=…: where a release certificate's QR code leads. Anyone can check that a certificate
 * matches Tranche's record; the page shows only what the certificate itself states.
 */
export default function VerifyCertificatePage() {
  const [params, setParams] = useSearchParams();
  // The page is prerendered without a query: read it once hydrated, so the first render matches that HTML.
  const hydrated = useHydrated();
  const release = hydrated ? (params.get("release") ?? "") : "";
  const hash = hydrated ? (params.get("hash") ?? "") : "";
  const ready = UUID.test(release) && SHA256.test(hash);
  // A link whose id or fingerprint is malformed (cut short, mistyped) matches no certificate: say so. A link that
  // gives only one of them is not a verdict yet: the form asks for the other.
  const malformed = !ready && release !== "" && hash !== "";
  const check = useQuery({
    queryKey: ["certificate-check", release, hash.toLowerCase()],
    queryFn: () => api<CertificateCheckDto>(`/certificates/verify?release=${release}&hash=${hash}`),
    enabled: ready,
    retry: false,
  });

  return (
    <main id="main">
      <PageHero
        eyebrow="Release certificates"
        title="Check a release certificate"
        lead={
          <p>
            Every release certificate carries its release id and a SHA-256 fingerprint of what it states. Enter both (or
            scan the certificate's QR code) to confirm it matches Tranche's record.
          </p>
        }
      />
      <Section id="check" title={ready || malformed ? "Result" : "Enter the certificate's details"}>
        <div className="grid max-w-3xl gap-8">
          <CheckForm
            key={`${release}:${hash}`}
            release={release}
            hash={hash}
            onCheck={(next) => setParams({ release: next.release, hash: next.hash })}
          />
          {ready ? <Result loading={check.isPending} data={check.data} error={check.error} /> : null}
          {malformed ? <Result loading={false} data={{ valid: false }} error={null} /> : null}
        </div>
      </Section>
    </main>
  );
}

/** What is wrong with the given id and fingerprint; empty ones only when `required` (a submitted form). */
function problems(v: { release: string; hash: string }, required = false) {
  return {
    release:
      (required || v.release) && !UUID.test(v.release) ? "Enter the release id printed on the certificate." : undefined,
    hash:
      (required || v.hash) && !SHA256.test(v.hash)
        ? "Enter the 64-character fingerprint printed on the certificate."
        : undefined,
  };
}

function CheckForm(props: { release: string; hash: string; onCheck: (v: { release: string; hash: string }) => void }) {
  const [release, setRelease] = useState(props.release);
  const [hash, setHash] = useState(props.hash);
  const [errors, setErrors] = useState<{ release?: string; hash?: string }>(() =>
    problems(props, props.release !== "" || props.hash !== ""),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = { release: release.trim(), hash: hash.trim().toLowerCase() };
    const found = problems(next, true);
    // Rendered before focus moves, so the field is already marked invalid and described by its error when a screen
    // reader announces it.
    flushSync(() => setErrors(found));
    if (found.release || found.hash) focusField(found.release ? "release" : "hash");
    else props.onCheck(next);
  };
  return (
    // Named fields: submitted before the page hydrates, the browser's own GET lands on the same address.
    <form onSubmit={submit} noValidate className="grid gap-4" action="/verify">
      <Field id="release" label="Release id" error={errors.release}>
        <Input
          id="release"
          name="release"
          value={release}
          onChange={(e) => setRelease(e.target.value)}
          aria-invalid={Boolean(errors.release)}
          aria-describedby={errors.release ? "release-error" : undefined}
          className="font-mono"
          autoComplete="off"
          spellCheck={false}
        />
      </Field>
      <Field id="hash" label="Certificate fingerprint (SHA-256)" error={errors.hash}>
        <Input
          id="hash"
          name="hash"
          value={hash}
          onChange={(e) => setHash(e.target.value)}
          aria-invalid={Boolean(errors.hash)}
          aria-describedby={errors.hash ? "hash-error" : undefined}
          className="font-mono"
          autoComplete="off"
          spellCheck={false}
        />
      </Field>
      <div>
        <button type="submit" className={primaryButton}>
          Check certificate
        </button>
      </div>
    </form>
  );
}

function Result({ loading, data, error }: { loading: boolean; data?: CertificateCheckDto; error: Error | null }) {
  if (loading) {
    return (
      <p role="status" className="text-slate-600">
        Checking the certificate…
      </p>
    );
  }
  if (error || !data) {
    const message = error instanceof ApiError ? error.message : "The check could not be completed. Please try again.";
    return (
      <p role="alert" className="text-destructive">
        {message}
      </p>
    );
  }
  if (!data.valid) {
    return (
      <div role="status" className="flex gap-3 rounded-lg border border-red-200 bg-red-50 p-5 text-red-900">
        <CircleXIcon className="mt-0.5 size-5 shrink-0" aria-hidden />
        <div>
          <p className="font-semibold">This certificate does not match Tranche's record.</p>
          <p className="mt-1 text-sm">
            The release id or the fingerprint differs from any certificate Tranche issued. Do not rely on it; ask the
            project's investor for the original.
          </p>
        </div>
      </div>
    );
  }
  return (
    <div className="grid gap-6">
      <div role="status" className="flex gap-3 rounded-lg border border-emerald-200 bg-emerald-50 p-5 text-emerald-900">
        <CircleCheckIcon className="mt-0.5 size-5 shrink-0" aria-hidden />
        <div>
          <p className="font-semibold">This certificate matches Tranche's record.</p>
          <p className="mt-1 text-sm">It states exactly the facts below, as issued on {when(data.facts.issuedAt)}.</p>
        </div>
      </div>
      {data.cancelled ? (
        <p role="alert" className="rounded-lg border border-amber-200 bg-amber-50 p-5 text-amber-900">
          This release was cancelled after the certificate was issued: no capital was paid under it.
        </p>
      ) : null}
      <Facts facts={data.facts} checkpoint={data.checkpoint} />
    </div>
  );
}

function Facts({
  facts,
  checkpoint,
}: {
  facts: CertificateFacts;
  checkpoint: Extract<CertificateCheckDto, { valid: true }>["checkpoint"];
}) {
  const amount = Number(facts.release.amount).toLocaleString("en-US", {
    style: "currency",
    currency: facts.release.currency,
    minimumFractionDigits: 2,
  });
  return (
    <dl className="divide-y divide-slate-200 rounded-lg border border-slate-200">
      <Row label="Amount">{`${amount} ${facts.release.currency}`}</Row>
      <Row label="Approved">{when(facts.release.approvedAt)}</Row>
      <Row label="Project">
        {facts.project.location ? `${facts.project.name} · ${facts.project.location}` : facts.project.name}
      </Row>
      <Row label="Milestone">{`${facts.milestone.title} (due ${facts.milestone.dueDate})`}</Row>
      <Row label="Beneficiary">{party(facts.beneficiary)}</Row>
      <Row label="Release rule">{facts.policy}</Row>
      {facts.partial ? (
        <Row label="Partial release">
          {`${facts.partial.share}% of ${Number(facts.partial.of).toLocaleString("en-US", {
            style: "currency",
            currency: facts.release.currency,
            minimumFractionDigits: 2,
          })} then open${facts.partial.reason ? `: ${facts.partial.reason}` : ""}`}
        </Row>
      ) : null}
      {facts.approvals.map((a) => (
        <Row
          key={a.decidedAt + a.verifier.name}
          label={a.decision === "countersigned" ? "Countersigned by" : "Approved by"}
        >
          {`${party(a.verifier)} on ${when(a.decidedAt)}`}
        </Row>
      ))}
      <Row label={`Evidence (${facts.evidence.length})`}>
        {facts.evidence.length === 0 ? (
          "No evidence files"
        ) : (
          <ul className="grid gap-2">
            {facts.evidence.map((file) => (
              <li key={file.sha256 + file.name}>
                <span className="break-all">{file.name}</span>
                <Hash>{file.sha256}</Hash>
                {file.capture ? (
                  <span className="block text-xs text-slate-600">
                    {capturedByWords(file.capture.by)} {when(file.capture.capturedAt)} at{" "}
                    {formatCoordinates(file.capture)}
                    {file.capture.distanceToSiteM === null
                      ? ""
                      : `, ${formatDistance(file.capture.distanceToSiteM)} from the site`}
                  </span>
                ) : null}
                {(file.flags ?? []).map((flag) => (
                  <span key={flag.code} className="block text-xs text-amber-800">
                    Flag ({flag.severity}
                    {flag.dismissed ? ", dismissed" : ""}): {flag.message}
                  </span>
                ))}
              </li>
            ))}
          </ul>
        )}
      </Row>
      <Row label="Audit event">
        {facts.auditEvent ? (
          <>
            #{facts.auditEvent.id}, recorded {when(facts.auditEvent.recordedAt)}
            <Hash>{facts.auditEvent.hash}</Hash>
          </>
        ) : (
          "—"
        )}
      </Row>
      <Row label="Signed checkpoint">
        {checkpoint ? (
          <>
            #{checkpoint.id} covers events up to #{checkpoint.lastEventId}, signed {when(checkpoint.signedAt)} with key{" "}
            {checkpoint.keyId} (Ed25519; the public key is at <code>/api/audit/public-key</code>)
            <Hash>{checkpoint.signature}</Hash>
          </>
        ) : (
          "Not yet signed: the next checkpoint covers this event within minutes."
        )}
      </Row>
      <Row label="Release id">
        <span className="break-all font-mono text-sm">{facts.release.id}</span>
      </Row>
    </dl>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 p-4 sm:grid-cols-[12rem_1fr] sm:gap-4">
      <dt className="text-sm font-medium text-slate-500">{label}</dt>
      <dd className="min-w-0 text-slate-900">{children}</dd>
    </div>
  );
}

const Hash = ({ children }: { children: string }) => (
  <span className="block break-all font-mono text-xs text-slate-500">{children}</span>
);
