import { fieldErrors, publicRequestSchema } from "@tranche/domain";
import { CheckCircle2Icon } from "lucide-react";
import { useId } from "react";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { Field, Input, Textarea } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { ApiError, errorMessage } from "@/lib/api-client";
import { useFieldErrors } from "@/lib/use-field-errors";
import { useHydrated } from "@/lib/use-hydrated";
import { useCreatePublicRequest } from "../api/create-public-request";

export type RequestKind = "demo" | "early_access" | "verifier_partner";
type FieldName = "name" | "email" | "organization" | "message";

/** What each request answers: a title and a line on what happens next. */
const SUCCESS: Record<RequestKind, { title: string; text: string }> = {
  demo: {
    title: "Request Received",
    text: "Thanks for your interest! We'll contact you within one business day to arrange your demo.",
  },
  early_access: {
    title: "Request Received",
    text: "Thanks for your interest! We'll e-mail you as soon as early access to the verifier app opens.",
  },
  verifier_partner: {
    title: "Request Received",
    text: "Thanks for your interest! We'll contact you shortly about becoming a verified partner.",
  },
};

const required = (message: string) => z.string({ error: message }).trim().min(1, { error: message });

/** The shared schema, with this form's required fields made so (the API keeps them optional). */
function formSchema(fields: FieldSpec[]) {
  const rule = (name: "name" | "organization" | "message") => {
    const field = fields.find((f) => f.name === name);
    return field?.required ? required(`${field.label} is required.`) : publicRequestSchema.shape[name];
  };
  return publicRequestSchema.extend({
    name: rule("name"),
    organization: rule("organization"),
    message: rule("message"),
  });
}

export interface FieldSpec {
  name: FieldName;
  label: string;
  required?: boolean;
  placeholder?: string;
  autoComplete?: string;
  multiline?: boolean;
}

/**
 * A public request form: validated with the shared schema (plus this form's required fields) before it
 * is sent, stored by the server, then replaced by a request-received message.
 */
export function RequestForm({
  kind,
  source,
  fields,
  submitLabel,
  receivedTitle = "Request received",
  receivedText,
  compact = false,
}: {
  kind: RequestKind;
  /** Where the request came from (the page path), shown to the admins. */
  source: string;
  fields: FieldSpec[];
  submitLabel: string;
  receivedTitle?: string;
  receivedText: string;
  /** One row: e-mail input and button side by side (the hero and feature-page blocks). */
  compact?: boolean;
}) {
  const id = useId();
  const { formRef, errors, setErrors, show } = useFieldErrors();
  const send = useCreatePublicRequest();
  const hydrated = useHydrated();

  const schema = formSchema(fields);

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Read from the form itself (uncontrolled fields): what a visitor typed into the prerendered page before it
    // hydrated is kept by the browser and sent, where a controlled field would have been reset to empty.
    const form = new FormData(event.currentTarget);
    const input = { kind, source, ...Object.fromEntries(fields.map((f) => [f.name, String(form.get(f.name) ?? "")])) };
    const parsed = schema.safeParse(input);
    if (!parsed.success) {
      show(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    send.mutate(parsed.data, {
      onSuccess: () => toast.success(SUCCESS[kind].title, SUCCESS[kind].text),
      onError: (error) => {
        if (error instanceof ApiError && error.status === 400) show(error.fieldErrors);
        const title = error instanceof ApiError && error.status === 429 ? "Too many requests" : "Error";
        toast.error(title, errorMessage(error, "Your request could not be sent. Please try again."));
      },
    });
  }

  if (send.isSuccess) {
    return (
      <div role="status" className="flex gap-3 rounded-lg border border-emerald-200 bg-emerald-50 p-5 text-emerald-900">
        <CheckCircle2Icon className="mt-0.5 size-5 shrink-0 text-emerald-700" aria-hidden />
        <div>
          <p className="font-semibold">{receivedTitle}</p>
          <p className="mt-1 text-sm">{receivedText}</p>
        </div>
      </div>
    );
  }

  const control = (field: FieldSpec) => {
    const props = {
      id: `${id}-${field.name}`,
      name: field.name,
      placeholder: field.placeholder,
      autoComplete: field.autoComplete,
      "aria-invalid": errors[field.name] ? true : undefined,
      "aria-describedby": errors[field.name] ? `${id}-${field.name}-error` : undefined,
      "aria-required": field.required || field.name === "email" ? true : undefined,
    };
    return field.multiline ? (
      <Textarea {...props} rows={4} />
    ) : (
      <Input {...props} type={field.name === "email" ? "email" : "text"} />
    );
  };
  const label = (field: FieldSpec) => (
    <>
      {field.label}
      {field.required || field.name === "email" ? null : (
        <span className="font-normal text-slate-600"> (optional)</span>
      )}
    </>
  );

  if (compact) {
    const field = fields[0];
    return (
      <form ref={formRef} noValidate onSubmit={submit} className="grid gap-2">
        <label htmlFor={`${id}-${field.name}`} className="text-sm font-medium">
          {field.label}
        </label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <div className="flex-1">{control(field)}</div>
          <Button type="submit" variant="accent" disabled={!hydrated || send.isPending}>
            {send.isPending ? "Sending..." : submitLabel}
          </Button>
        </div>
        {errors[field.name] ? (
          <p id={`${id}-${field.name}-error`} role="alert" className="text-sm font-medium text-red-700">
            {errors[field.name]}
          </p>
        ) : null}
      </form>
    );
  }

  return (
    <form ref={formRef} noValidate onSubmit={submit} className="grid gap-5">
      {fields.map((field) => (
        <Field key={field.name} id={`${id}-${field.name}`} label={label(field)} error={errors[field.name]}>
          {control(field)}
        </Field>
      ))}
      <div>
        <Button type="submit" size="lg" variant="accent" disabled={!hydrated || send.isPending}>
          {send.isPending ? "Sending..." : submitLabel}
        </Button>
      </div>
    </form>
  );
}
