import { formatDateTime, MAX_REQUIRED_APPROVALS, type ReleasePolicyDto, unreachableApprovals } from "@tranche/domain";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { LoadError, Skeleton } from "@/components/ui/feedback";
import { Field, Input, NativeSelect } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { ApiError, errorMessage } from "@/lib/api-client";
import { useFieldErrors } from "@/lib/use-field-errors";
import { useReleasePolicy, useSetReleasePolicy } from "../api/release-policy";

/** The project's release rule in force, its versions, and the editor for admins and the lead investor. */
export function ReleasePolicyCard({ projectId }: { projectId: string }) {
  const { data, isPending, isError, error, refetch } = useReleasePolicy(projectId);
  const [editing, setEditing] = useState(false);
  if (isPending) return <Skeleton className="h-32" />;
  if (isError) return <LoadError title="Could not load the release policy" error={error} onRetry={refetch} />;
  const { current } = data;
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle>Release Policy</CardTitle>
        {data.canEdit && !editing ? (
          <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
            Edit policy
          </Button>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-1">
          <p className="text-sm font-medium text-slate-900">{current.statement}</p>
          <p className="text-xs text-muted-foreground">
            {current.version === 0
              ? "Default rule: the verifier who starts the verification approves alone."
              : `Version ${current.version}, set by ${current.createdByName ?? "a former user"} on ${formatDateTime(current.createdAt ?? "")}.`}
          </p>
        </div>
        {current.requiredApprovals > data.assignedVerifiers ? (
          <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {data.assignedVerifiers === 0
              ? "No verifier is assigned yet"
              : `Only ${data.assignedVerifiers} ${data.assignedVerifiers === 1 ? "verifier is" : "verifiers are"} assigned`}
            : an admin must assign {data.assignedVerifiers === 0 ? "one" : "more"} before a milestone can reach{" "}
            {current.requiredApprovals} {current.requiredApprovals === 1 ? "approval" : "approvals"}.
          </p>
        ) : null}
        {editing ? <PolicyForm policy={data} onDone={() => setEditing(false)} /> : null}
        {data.history.length > 1 ? (
          <details className="text-sm">
            <summary className="cursor-pointer text-slate-700">Earlier versions ({data.history.length - 1})</summary>
            <ol className="mt-2 grid gap-2">
              {data.history.slice(1).map((v) => (
                <li key={v.version} className="text-slate-700">
                  <span className="font-medium">Version {v.version}</span>: {v.statement}
                  <span className="block text-xs text-muted-foreground">
                    {v.createdByName ?? "A former user"}, {formatDateTime(v.createdAt ?? "")}
                  </span>
                </li>
              ))}
            </ol>
          </details>
        ) : null}
      </CardContent>
    </Card>
  );
}

const APPROVAL_OPTIONS = Array.from({ length: MAX_REQUIRED_APPROVALS }, (_, i) => String(i + 1));

interface ControlProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
}

function ApprovalsSelect({ onChange, ...props }: ControlProps & { disabled?: boolean }) {
  return (
    <NativeSelect {...props} onChange={(e) => onChange(e.target.value)}>
      {APPROVAL_OPTIONS.map((n) => (
        <option key={n} value={n}>
          {n}
        </option>
      ))}
    </NativeSelect>
  );
}

function AmountInput({ onChange, example, ...props }: ControlProps & { example: string }) {
  return (
    <Input {...props} inputMode="decimal" placeholder={`e.g. ${example}`} onChange={(e) => onChange(e.target.value)} />
  );
}

const amountOrNull = (text: string) => (text.trim() === "" ? null : Number(text.replace(/,/g, "")));

function PolicyForm({ policy, onDone }: { policy: ReleasePolicyDto; onDone: () => void }) {
  const ids = { approvals: useId(), distinct: useId(), cosign: useId(), threshold: useId(), thresholdK: useId() };
  const save = useSetReleasePolicy(policy.projectId);
  const { current } = policy;
  const [approvals, setApprovals] = useState(String(current.requiredApprovals));
  const [distinct, setDistinct] = useState(current.distinctOrganizations);
  const [cosign, setCosign] = useState(current.cosignAbove === null ? "" : String(current.cosignAbove));
  const first = current.thresholds[0];
  const [threshold, setThreshold] = useState(first ? String(first.minAmount) : "");
  const [thresholdApprovals, setThresholdApprovals] = useState(String(first?.approvals ?? 2));
  const { formRef, errors, setErrors, show } = useFieldErrors();

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    setErrors({});
    const minAmount = amountOrNull(threshold);
    const input = {
      requiredApprovals: Number(approvals),
      distinctOrganizations: distinct,
      cosignAbove: amountOrNull(cosign),
      thresholds: minAmount === null ? [] : [{ minAmount, approvals: Number(thresholdApprovals) }],
    };
    // The server refuses a rule the assigned verifiers cannot meet; say so before sending it.
    const unreachable = unreachableApprovals(input, policy.assignedVerifiers);
    if (unreachable) {
      show({ [unreachable.field]: unreachable.message });
      return;
    }
    save.mutate(input, {
      onSuccess: (saved) => {
        toast.success("Release policy saved", `Version ${saved.current.version}: ${saved.current.statement}.`);
        onDone();
      },
      onError: (e) => {
        if (e instanceof ApiError) show(e.fieldErrors);
        toast.error("Error saving the release policy", errorMessage(e));
      },
    });
  };

  return (
    <form ref={formRef} onSubmit={onSubmit} className="grid gap-4 rounded-md border border-slate-200 p-4" noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id={ids.approvals}
          label="Approvals required"
          error={errors.requiredApprovals}
          hint={`Distinct assigned verifiers (${policy.assignedVerifiers} assigned now).`}
        >
          <ApprovalsSelect id={ids.approvals} value={approvals} onChange={setApprovals} />
        </Field>
        <Field
          id={ids.cosign}
          label={`Investor countersign above (${policy.currency})`}
          error={errors.cosignAbove}
          hint="Leave empty for no countersignature."
        >
          <AmountInput id={ids.cosign} value={cosign} onChange={setCosign} example="1000000" />
        </Field>
        <Field
          id={ids.threshold}
          label={`Milestones of at least (${policy.currency})`}
          error={errors["thresholds.0.minAmount"] ?? errors.thresholds}
          hint="Optional: larger milestones need more approvals."
        >
          <AmountInput id={ids.threshold} value={threshold} onChange={setThreshold} example="500000" />
        </Field>
        <Field id={ids.thresholdK} label="…need this many approvals" error={errors["thresholds.0.approvals"]}>
          <ApprovalsSelect
            id={ids.thresholdK}
            value={thresholdApprovals}
            onChange={setThresholdApprovals}
            disabled={threshold.trim() === ""}
          />
        </Field>
      </div>
      <label htmlFor={ids.distinct} className="flex items-center gap-2 text-sm text-slate-800">
        <input
          id={ids.distinct}
          type="checkbox"
          className="size-4"
          checked={distinct}
          onChange={(e) => setDistinct(e.target.checked)}
        />
        Approving verifiers must come from different organizations
      </label>
      <p className="text-xs text-muted-foreground">
        Saving creates a new version; milestones already released keep the version that applied to them, and decisions
        already made on milestones in verification are void: their verifiers decide again under it.
      </p>
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" onClick={onDone} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant="accent" disabled={save.isPending}>
          Save policy
        </Button>
      </div>
    </form>
  );
}
