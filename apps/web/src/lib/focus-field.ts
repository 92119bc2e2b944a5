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
