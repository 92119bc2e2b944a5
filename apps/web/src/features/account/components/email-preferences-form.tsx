import {
  EMAIL_CATEGORIES,
  EMAIL_CATEGORY_LABELS,
  EMAIL_MODE_LABELS,
  EMAIL_MODES,
  type EmailCategory,
  type EmailMode,
  type EmailPreferences,
} from "@tranche/domain";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { LoadError, Skeleton } from "@/components/ui/feedback";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useEmailPreferences, useSetEmailPreferences } from "../api/profile";

/** Per category: email at once, in the daily digest, or not at all. */
export function EmailPreferencesForm() {
  const { data, isPending, isError, error, refetch } = useEmailPreferences();
  return (
    <Card>
      <CardHeader>
        <h2 className="text-base font-semibold leading-tight tracking-tight">Email notifications</h2>
        <CardDescription>
          Choose which notifications also reach your inbox. The daily digest arrives each morning with what happened
          since the last one. Invitations, password resets and security messages are always sent.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <Skeleton className="h-40" />
        ) : isError ? (
          <LoadError title="Could not load your email settings" error={error} onRetry={refetch} />
        ) : (
          <PreferencesFields saved={data} />
        )}
      </CardContent>
    </Card>
  );
}

function PreferencesFields({ saved }: { saved: EmailPreferences }) {
  const [values, setValues] = useState(saved);
  const save = useSetEmailPreferences();
  const changed = EMAIL_CATEGORIES.some((category) => values[category] !== saved[category]);
  return (
    <form
      className="grid gap-4"
      aria-label="Email notifications"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(values, {
          onSuccess: () => toast.success("Email settings saved"),
          onError: (e) => toast.error("Could not save your email settings", errorMessage(e)),
        });
      }}
    >
      {EMAIL_CATEGORIES.map((category: EmailCategory) => (
        <fieldset
          key={category}
          className="grid gap-2 border-b pb-4 last:border-b-0 sm:grid-cols-[1fr_auto] sm:items-center"
        >
          <legend className="sr-only">{EMAIL_CATEGORY_LABELS[category].label}</legend>
          <div aria-hidden="true">
            <p className="text-sm font-medium text-slate-900">{EMAIL_CATEGORY_LABELS[category].label}</p>
            <p className="text-sm text-muted-foreground">{EMAIL_CATEGORY_LABELS[category].description}</p>
          </div>
          <div className="flex flex-wrap gap-x-4 gap-y-2">
            {EMAIL_MODES.map((mode: EmailMode) => (
              <label key={mode} className="flex items-center gap-1.5 text-sm">
                <input
                  type="radio"
                  name={`email-${category}`}
                  value={mode}
                  checked={values[category] === mode}
                  onChange={() => setValues((v) => ({ ...v, [category]: mode }))}
                />
                {EMAIL_MODE_LABELS[mode]}
              </label>
            ))}
          </div>
        </fieldset>
      ))}
      <div>
        <Button type="submit" disabled={!changed || save.isPending}>
          {save.isPending ? "Saving..." : "Save email settings"}
        </Button>
      </div>
    </form>
  );
}
