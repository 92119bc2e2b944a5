import { CHECKLIST_ITEMS, CHECKLIST_NOTE_MAX, type Checklist, type ChecklistNotes } from "@tranche/domain";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Textarea } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";

/**
 * The six checklist items, each with a note of what was seen on site. Saving queues them (sent at once with a
 * connection, later without); a checklist still waiting is brought up to date rather than queued twice.
 */
export function ChecklistCard({
  checklist,
  notes,
  disabled,
  onSave,
}: {
  checklist: Checklist;
  notes: ChecklistNotes;
  disabled: boolean;
  onSave: (checklist: Checklist, notes: ChecklistNotes) => Promise<void>;
}) {
  const id = useId();
  const [checked, setChecked] = useState(checklist);
  const [text, setText] = useState<ChecklistNotes>(notes);
  const [saving, setSaving] = useState(false);
  const done = CHECKLIST_ITEMS.filter(({ key }) => checked[key]).length;

  async function save() {
    setSaving(true);
    try {
      const trimmed = Object.fromEntries(
        CHECKLIST_ITEMS.flatMap(({ key }) => (text[key]?.trim() ? [[key, text[key]?.trim()]] : [])),
      ) as ChecklistNotes;
      await onSave(checked, trimmed);
      toast.success("Checklist saved", "It is sent with the rest of the queue, in order.");
    } catch (error) {
      toast.error("Checklist not saved", error instanceof Error ? error.message : String(error));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Checklist</CardTitle>
        <p className="text-sm text-muted-foreground">{done} of 6 checked</p>
      </CardHeader>
      <CardContent className="grid gap-4">
        {CHECKLIST_ITEMS.map((item) => (
          <fieldset key={item.key} className="grid gap-2 rounded-md border p-3" disabled={disabled}>
            <label className="flex items-start gap-3 text-sm font-medium text-slate-900">
              <input
                type="checkbox"
                className="mt-0.5 size-5 shrink-0 accent-emerald-700"
                checked={checked[item.key]}
                onChange={(e) => setChecked((c) => ({ ...c, [item.key]: e.target.checked }))}
              />
              {item.label}
            </label>
            <label htmlFor={`${id}-${item.key}`} className="sr-only">
              Note: {item.label}
            </label>
            <Textarea
              id={`${id}-${item.key}`}
              className="min-h-16"
              placeholder="What you saw (optional)"
              maxLength={CHECKLIST_NOTE_MAX}
              value={text[item.key] ?? ""}
              onChange={(e) => setText((t) => ({ ...t, [item.key]: e.target.value }))}
            />
          </fieldset>
        ))}
        <Button type="button" onClick={() => void save()} disabled={disabled || saving} className="justify-self-start">
          {saving ? "Saving..." : "Save checklist"}
        </Button>
      </CardContent>
    </Card>
  );
}
