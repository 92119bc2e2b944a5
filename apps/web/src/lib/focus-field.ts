import { flushSync } from "react-dom";

/**
 * Puts the keyboard on a field after a failed submit, so keyboard and screen-reader users land where the error is
 * instead of staying on the button (or falling to the page's start when the button was disabled meanwhile).
 */
export function focusField(id: string, options: { select?: boolean } = {}) {
  const field = document.getElementById(id);
  if (!(field instanceof HTMLInputElement)) return;
  field.focus();
  if (options.select) field.select();
}

/**
 * Renders a failed submit's errors at once, then focuses the first invalid field: so that field is already marked
 * invalid and described by its error when the screen reader announces it.
 */
export function showErrorsThenFocus(render: () => void, container: HTMLElement | null) {
  flushSync(render);
  focusFirstInvalid(container);
}

/**
 * Puts the keyboard on the first field marked invalid inside `container` (document order, so the one a reader
 * meets first), whatever kind of control it is.
 */
export function focusFirstInvalid(container: HTMLElement | null) {
  const field = container?.querySelector<HTMLElement>('[aria-invalid="true"]');
  field?.focus();
}
