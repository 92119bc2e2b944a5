import type * as React from "react";
import { createContext, useContext } from "react";
import { cn } from "@/lib/utils";

/** The field a control sits in: its id, and whether an error or a hint is shown under it. */
const FieldContext = createContext<{ id: string; error: boolean; hint: boolean } | null>(null);

type AriaProps = { id?: string; "aria-invalid"?: React.AriaAttributes["aria-invalid"]; "aria-describedby"?: string };

/**
 * The ARIA a control inside a `Field` gets without the form spelling it out: marked invalid and described by the
 * error (or else the hint), so every form announces what is wrong with a field the same way. Only the control the
 * label points at (same id) takes it; a value the caller passes still wins, an undefined one does not.
 */
function useFieldAria(props: AriaProps): AriaProps {
  const field = useContext(FieldContext);
  if (!field || field.id !== props.id) return {};
  const describedBy = field.error ? `${field.id}-error` : field.hint ? `${field.id}-hint` : undefined;
  return {
    "aria-invalid": props["aria-invalid"] ?? (field.error || undefined),
    "aria-describedby": props["aria-describedby"] ?? describedBy,
  };
}

export const fieldClass =
  "flex w-full rounded-md border border-input bg-white px-3 py-2 text-sm placeholder:text-slate-500 focus-visible:outline-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-50 aria-[invalid=true]:border-destructive";

export function Input({ className, ...props }: React.ComponentProps<"input">) {
  return <input className={cn(fieldClass, "h-10", className)} {...props} {...useFieldAria(props)} />;
}

export function Textarea({ className, ...props }: React.ComponentProps<"textarea">) {
  return <textarea className={cn(fieldClass, "min-h-20", className)} {...props} {...useFieldAria(props)} />;
}

export function NativeSelect({ className, ...props }: React.ComponentProps<"select">) {
  return <select className={cn(fieldClass, "h-10", className)} {...props} {...useFieldAria(props)} />;
}

export function Label({ className, ...props }: React.ComponentProps<"label">) {
  // biome-ignore lint/a11y/noLabelWithoutControl: callers pass htmlFor or nest the control
  return <label className={cn("text-sm font-medium leading-none text-slate-800", className)} {...props} />;
}

/**
 * A label, its control and the field's error message, linked for screen readers: an `Input`, `Textarea` or
 * `NativeSelect` with the field's id is marked invalid and described by the error on its own.
 */
export function Field({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: React.ReactNode;
  error?: string;
  hint?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <div className="grid content-start gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <FieldContext value={{ id, error: Boolean(error), hint: Boolean(hint) }}>{children}</FieldContext>
      {hint && !error ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
