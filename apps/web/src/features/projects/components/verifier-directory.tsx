import type { VerifierDto } from "@tranche/domain";
import { StarIcon } from "lucide-react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { VerifierTurnaround } from "@/components/verifier-turnaround";

/** The verifiers directory (SPEC.md §3 Verifier fields). */
export function VerifierDirectory({ verifiers }: { verifiers: VerifierDto[] }) {
  return (
    <div className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3">
      {verifiers.map((v) => (
        <Card key={v.id} data-testid="verifier-card">
          <CardHeader>
            <div className="flex items-start justify-between gap-2">
              <CardTitle>{v.name}</CardTitle>
              {v.rating !== null ? (
                <span className="flex items-center gap-1 text-sm font-medium text-slate-800">
                  <StarIcon className="size-4 fill-amber-400 text-amber-500" aria-hidden />
                  <span className="sr-only">Rating</span>
                  {v.rating.toFixed(1)}
                </span>
              ) : null}
            </div>
            <p className="text-sm text-muted-foreground">{v.organization ?? "Independent Verifier"}</p>
          </CardHeader>
          <CardContent className="grid gap-3 text-sm">
            <a href={`mailto:${v.email}`} className="truncate text-blue-700 hover:underline" title={v.email}>
              {v.email}
            </a>
            {v.expertise.length ? (
              <ul className="flex flex-wrap gap-1.5" aria-label="Expertise">
                {v.expertise.map((e) => (
                  <li key={e} className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs text-slate-700">
                    {e}
                  </li>
                ))}
              </ul>
            ) : null}
            <dl className="grid grid-cols-2 gap-2 border-t pt-3">
              <div>
                <dt className="text-muted-foreground">Completed verifications</dt>
                <dd className="font-semibold text-slate-900">{v.completedVerifications}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Projects</dt>
                <dd className="font-semibold text-slate-900">{v.projectCount}</dd>
              </div>
            </dl>
            <VerifierTurnaround turnaround={v.turnaround} />
          </CardContent>
        </Card>
      ))}
    </div>
  );
}
