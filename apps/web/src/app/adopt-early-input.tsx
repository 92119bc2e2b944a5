// What a visitor, or the browser's autofill, put into a prerendered page's fields before React adopted the page.
// Hydration keeps each field as the visitor left it, but the component's state still holds the prerendered value:
// the landing page's calculator showed "$500M" beside a slider at 2,500, and /verify answered "Enter the release id
// printed on the certificate." beside the id the visitor had pasted. Once a part of the page is adopted, each such
// field is told to React as the change it was. React's own change handling is used: its tracker of a field's last
// value is moved back to the prerendered value through the field's `value` (or `checked`) property, which React
// watches, and the visitor's value is set again underneath it, so the event that follows is one React sees as a
// change.
import { useEffect } from "react";
import { useHydrated } from "@/lib/use-hydrated";

type TextField = HTMLInputElement | HTMLTextAreaElement;

const toggles = new Set(["checkbox", "radio"]);

function setNativeValue(field: TextField, value: string): void {
  const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(prototype, "value")?.set?.call(field, value);
}

/** Fields already told to React: each is adopted once, whichever part of the page is hydrated next. */
const adopted = new WeakSet<Element>();

/** React has hydrated this node (it keeps its fiber on it): a field in a part still to come is left for later. */
const hydrated = (node: Element) => Object.keys(node).some((key) => key.startsWith("__reactFiber$"));

function adoptEarlyInput(root: ParentNode): void {
  for (const field of root.querySelectorAll("input, textarea, select")) {
    if (adopted.has(field) || !hydrated(field)) continue;
    if (field instanceof HTMLSelectElement) {
      if ([...field.options].some((option) => option.selected !== option.defaultSelected)) {
        adopted.add(field);
        field.dispatchEvent(new Event("change", { bubbles: true }));
      }
    } else if (field instanceof HTMLInputElement && toggles.has(field.type)) {
      // A radio the visitor chose (the group's prerendered choice is unchecked by the browser), or a checkbox
      // the visitor turned over: back to what React knows, then the visitor's click again.
      const changed =
        field.type === "radio" ? field.checked && !field.defaultChecked : field.checked !== field.defaultChecked;
      if (changed) {
        adopted.add(field);
        field.checked = !field.checked;
        field.click();
      }
    } else if (
      (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) &&
      field.type !== "file" &&
      field.value !== field.defaultValue
    ) {
      adopted.add(field);
      const visitors = field.value;
      field.value = field.defaultValue;
      setNativeValue(field, visitors);
      field.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }
}

/**
 * Rendered inside each lazily loaded route (every route is one; React hydrates its part of a prerendered page only
 * once its module is in): after a hydrating render, it takes in what was entered meanwhile. A render that is not
 * hydrating does nothing.
 */
export function AdoptEarlyInput() {
  const live = useHydrated();
  useEffect(() => {
    if (!live) adoptEarlyInput(document);
  }, [live]);
  return null;
}
