import { CURRENCIES, type Currency, createProjectSchema, type ProjectSummaryDto } from "@tranche/domain";
import { type FormEvent, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import { Field, Input, NativeSelect, Textarea } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { ApiError, errorMessage } from "@/lib/api-client";
import { useFieldErrors } from "@/lib/use-field-errors";

/** What the inputs hold: text as typed, so an empty capital field stays empty rather than 0. */
export interface ProjectFormValues {
  name: string;
  description: string;
  totalCapital: string;
  location: string;
  /** Decimal degrees as typed; both or neither. */
  siteLatitude: string;
  siteLongitude: string;
  startDate: string;
  endDate: string;
  currency: Currency;
}

/** What the form hands to the API: the body of POST and PATCH /api/projects. */
export interface ProjectFormInput {
  name: string;
  description: string;
  totalCapital: number;
  location: string;
  siteLatitude: number | null;
  siteLongitude: number | null;
  startDate: string | null;
  endDate: string | null;
  currency: Currency;
}

export const EMPTY_PROJECT_FORM: ProjectFormValues = {
  name: "",
  description: "",
  totalCapital: "",
  location: "",
  siteLatitude: "",
  siteLongitude: "",
  startDate: "",
  endDate: "",
  currency: "USD",
};

export function projectFormValues(project: ProjectSummaryDto): ProjectFormValues {
  return {
    name: project.name,
    description: project.description,
    totalCapital: String(project.totalCapital),
    location: project.location,
    siteLatitude: project.siteLatitude === null ? "" : String(project.siteLatitude),
    siteLongitude: project.siteLongitude === null ? "" : String(project.siteLongitude),
    startDate: project.startDate ?? "",
    endDate: project.endDate ?? "",
    currency: project.currency,
  };
}

/** An empty coordinate is none; anything else is a number (or NaN, which the schema names). */
const degrees = (text: string): number | null => (text.trim() === "" ? null : Number(text.trim()));

export function projectFormInput(values: ProjectFormValues): ProjectFormInput {
  return {
    name: values.name,
    description: values.description,
    totalCapital: Number(values.totalCapital),
    location: values.location,
    siteLatitude: degrees(values.siteLatitude),
    siteLongitude: degrees(values.siteLongitude),
    startDate: values.startDate || null,
    endDate: values.endDate || null,
    currency: values.currency,
  };
}

/** Name, description, totalCapital and location are required; a capital of 0 counts as missing. */
function missingFields(values: ProjectFormValues): Record<string, string> {
  const missing: Record<string, string> = {};
  if (!values.name.trim()) missing.name = "Project name is required.";
  if (!values.description.trim()) missing.description = "Description is required.";
  if (!Number(values.totalCapital)) missing.totalCapital = "Total capital is required.";
  if (!values.location.trim()) missing.location = "Location is required.";
  return missing;
}

/**
 * The project's fields, shared by 'New Project' and 'Edit Project'. The server validates;
 * its 400 field messages are shown under their inputs and any failure as `errorTitle` + its message.
 */
export function ProjectForm({
  initial,
  submitLabel,
  pendingLabel,
  errorTitle,
  onSubmit,
  onCancel,
}: {
  initial: ProjectFormValues;
  submitLabel: string;
  pendingLabel: string;
  errorTitle: string;
  onSubmit: (input: ProjectFormInput) => Promise<void>;
  onCancel: () => void;
}) {
  const id = useId();
  const [values, setValues] = useState(initial);
  const { formRef, errors, setErrors, show } = useFieldErrors();
  const [pending, setPending] = useState(false);
  const set = (name: keyof ProjectFormValues) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [name]: e.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const missing = missingFields(values);
    if (Object.keys(missing).length > 0) {
      show(missing);
      toast.error("Missing Information", "Please fill in all required fields");
      return;
    }
    // The server's own schema first, so a bad figure is named under its input before anything is sent.
    const parsed = createProjectSchema.safeParse(projectFormInput(values));
    if (!parsed.success) {
      const fields = Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
      show(fields);
      toast.error(errorTitle, Object.values(fields).join(" "));
      return;
    }
    setErrors({});
    setPending(true);
    try {
      await onSubmit(projectFormInput(values));
    } catch (error) {
      // A 400's field messages go under their inputs; the toast repeats them without the "field:" prefix.
      const fields = error instanceof ApiError && error.code === "invalid_input" ? error.fieldErrors : {};
      show(fields);
      toast.error(errorTitle, Object.values(fields).join(" ") || errorMessage(error));
    } finally {
      setPending(false);
    }
  }

  return (
    <form ref={formRef} className="grid gap-4" onSubmit={submit} noValidate>
      <Field id={`${id}-name`} label="Project Name" error={errors.name}>
        <Input id={`${id}-name`} value={values.name} onChange={set("name")} />
      </Field>
      <Field id={`${id}-description`} label="Description" error={errors.description}>
        <Textarea id={`${id}-description`} value={values.description} onChange={set("description")} />
      </Field>
      <div className="grid gap-4 sm:grid-cols-[1fr_8rem]">
        <Field id={`${id}-capital`} label="Total Capital" error={errors.totalCapital}>
          <Input
            id={`${id}-capital`}
            type="number"
            inputMode="decimal"
            min={1}
            step="any"
            value={values.totalCapital}
            onChange={set("totalCapital")}
          />
        </Field>
        <Field id={`${id}-currency`} label="Currency" error={errors.currency}>
          <NativeSelect id={`${id}-currency`} value={values.currency} onChange={set("currency")}>
            {CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
      <Field id={`${id}-location`} label="Location" error={errors.location}>
        <Input id={`${id}-location`} value={values.location} onChange={set("location")} />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={`${id}-lat`} label="Site Latitude" error={errors.siteLatitude} hint="Decimal degrees, e.g. 35.80214">
          <Input id={`${id}-lat`} inputMode="decimal" value={values.siteLatitude} onChange={set("siteLatitude")} />
        </Field>
        <Field
          id={`${id}-lng`}
          label="Site Longitude"
          error={errors.siteLongitude}
          hint="e.g. -114.97936; both or neither"
        >
          <Input id={`${id}-lng`} inputMode="decimal" value={values.siteLongitude} onChange={set("siteLongitude")} />
        </Field>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={`${id}-start`} label="Start Date" error={errors.startDate}>
          <Input id={`${id}-start`} type="date" value={values.startDate} onChange={set("startDate")} />
        </Field>
        <Field id={`${id}-end`} label="End Date" error={errors.endDate}>
          <Input
            id={`${id}-end`}
            type="date"
            min={values.startDate || undefined}
            value={values.endDate}
            onChange={set("endDate")}
          />
        </Field>
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? pendingLabel : submitLabel}
        </Button>
      </DialogFooter>
    </form>
  );
}
