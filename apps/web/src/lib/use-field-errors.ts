import { useRef, useState } from "react";
import { showErrorsThenFocus } from "@/lib/focus-field";

export type FieldErrors = Record<string, string>;

/**
 * A form's field errors, by field name. `show` is for a failed submit (the form's own checks or a server 400 naming
 * fields): focus moves to the first invalid field. `setErrors` changes them without moving focus (clearing them
 * while typing). Put `formRef` on the `<form>`; the `Field`s mark their controls invalid and described by the error.
 */
export function useFieldErrors() {
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const show = (next: FieldErrors) => showErrorsThenFocus(() => setErrors(next), formRef.current);
  return { formRef, errors, setErrors, show };
}
