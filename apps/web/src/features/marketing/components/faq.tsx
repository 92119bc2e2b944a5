import { ChevronDownIcon } from "lucide-react";
import { useId, useState } from "react";

export interface FaqItem {
  question: string;
  answer: string;
}

/** An accordion that keeps at most one answer open; opening one closes the other. */
export function Faq({ items, defaultOpen = 0 }: { items: readonly FaqItem[]; defaultOpen?: number | null }) {
  const [open, setOpen] = useState<number | null>(defaultOpen);
  const id = useId();
  return (
    <div className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
      {items.map((item, index) => {
        const expanded = open === index;
        return (
          <div key={item.question}>
            <h3>
              <button
                type="button"
                id={`${id}-q${index}`}
                aria-expanded={expanded}
                aria-controls={`${id}-a${index}`}
                onClick={() => setOpen(expanded ? null : index)}
                className="flex w-full cursor-pointer items-center justify-between gap-4 px-5 py-4 text-left text-base font-medium text-slate-900 hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring"
              >
                {item.question}
                <ChevronDownIcon
                  className={`size-5 shrink-0 text-slate-500 transition-transform ${expanded ? "rotate-180" : ""}`}
                  aria-hidden
                />
              </button>
            </h3>
            <section
              id={`${id}-a${index}`}
              aria-labelledby={`${id}-q${index}`}
              hidden={!expanded}
              className="px-5 pb-5 leading-relaxed text-slate-600"
            >
              {item.answer}
            </section>
          </div>
        );
      })}
    </div>
  );
}
