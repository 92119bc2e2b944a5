import { type FormEvent, type ReactElement, type ReactNode, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { Field, NativeSelect } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";

export interface PersonOption {
  id: string;
  name: string;
  organization: string | null;
}

/** Who the picked person becomes, when there is a choice (an investor or a verifier of the project). */
export interface PersonKind<K extends string> {
  value: K;
  options: { value: K; label: string }[];
  onChange: (value: K) => void;
}

/**
 * Admin: choose one person for a project (assign a member, transfer the ownership). The caller loads the people
 * while the dialog is open (`open`), names the field, and does the change in `onPick`, which answers the toast;
 * a refusal is shown as an error toast and the dialog stays open.
 */
export function PersonPickerDialog<K extends string>({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  kind,
  personLabel,
  people,
  loading,
  noneLeft,
  submitLabel,
  pendingLabel,
  busy,
  failure,
  onPick,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger: ReactElement;
  title: string;
  description: ReactNode;
  kind?: PersonKind<K>;
  personLabel: string;
  /** The people who may be picked (those already in place left out). */
  people: PersonOption[];
  loading: boolean;
  /** Why nobody is listed, when nobody is. */
  noneLeft: string;
  submitLabel: string;
  pendingLabel: string;
  busy: boolean;
  /** The error toast's title. */
  failure: string;
  onPick: (person: PersonOption) => Promise<{ title: string; text: string }>;
}) {
  const [userId, setUserId] = useState("");
  const ids = { kind: useId(), person: useId() };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const person = people.find((p) => p.id === userId);
    if (!person) return;
    try {
      const done = await onPick(person);
      toast.success(done.title, done.text);
      setUserId("");
      onOpenChange(false);
    } catch (error) {
      toast.error(failure, errorMessage(error));
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={submit}>
          {kind ? (
            <Field id={ids.kind} label="Role">
              <NativeSelect
                id={ids.kind}
                value={kind.value}
                onChange={(e) => {
                  kind.onChange(e.target.value as K);
                  setUserId("");
                }}
              >
                {kind.options.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </NativeSelect>
            </Field>
          ) : null}
          <Field
            id={ids.person}
            label={personLabel}
            hint={loading ? "Loading..." : people.length === 0 ? noneLeft : undefined}
          >
            <NativeSelect id={ids.person} value={userId} onChange={(e) => setUserId(e.target.value)} required>
              <option value="">Choose…</option>
              {people.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                  {p.organization ? ` — ${p.organization}` : ""}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={!userId || busy}>
              {busy ? pendingLabel : submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
