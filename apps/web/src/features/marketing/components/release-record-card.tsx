const MILESTONES = [
  {
    title: "Site acquisition and permits",
    amount: "$3,600,000",
    state: "Released",
    tone: "bg-emerald-100 text-emerald-800",
  },
  {
    title: "Grid connection agreement",
    amount: "$4,800,000",
    state: "Released",
    tone: "bg-emerald-100 text-emerald-800",
  },
  {
    title: "Panels and inverters installed",
    amount: "$9,600,000",
    state: "In verification",
    tone: "bg-sky-100 text-sky-800",
  },
  { title: "Commercial operation date", amount: "$6,000,000", state: "Withheld", tone: "bg-slate-200 text-slate-700" },
] as const;

/** The hero's example: one project's milestones and what has been released against them. */
export function ReleaseRecordCard() {
  return (
    <figure className="rounded-xl bg-white p-5 text-slate-900 shadow-2xl ring-1 ring-white/10 sm:p-6">
      <figcaption className="flex items-start justify-between gap-4">
        <span>
          <span className="block text-xs font-medium uppercase tracking-wider text-slate-500">Example project</span>
          <span className="mt-1 block font-semibold">Lakeside solar and storage, 48 MW</span>
        </span>
        <span className="shrink-0 rounded-full bg-emerald-100 px-2.5 py-1 text-xs font-semibold text-emerald-800">
          Verified
        </span>
      </figcaption>
      <div className="mt-5 grid grid-cols-3 gap-3 text-sm">
        <div>
          <span className="block text-slate-500">Total</span>
          <span className="font-semibold">$24.0M</span>
        </div>
        <div>
          <span className="block text-slate-500">Released</span>
          <span className="font-semibold text-emerald-700">$8.4M</span>
        </div>
        <div>
          <span className="block text-slate-500">Remaining</span>
          <span className="font-semibold">$15.6M</span>
        </div>
      </div>
      <div className="mt-3 h-2 rounded-full bg-slate-100" aria-hidden>
        <div className="h-2 w-[35%] rounded-full bg-emerald-600" />
      </div>
      <ol className="mt-5 grid gap-2.5">
        {MILESTONES.map((m, index) => (
          <li
            key={m.title}
            className="flex items-center justify-between gap-3 rounded-md border border-slate-200 px-3 py-2.5"
          >
            <span className="min-w-0">
              <span className="block truncate text-sm font-medium">
                {index + 1}. {m.title}
              </span>
              <span className="block text-xs text-slate-500">{m.amount}</span>
            </span>
            <span className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold ${m.tone}`}>{m.state}</span>
          </li>
        ))}
      </ol>
      <p className="mt-4 text-xs text-slate-500">Milestone 2 verified by R. Mensah, PE · evidence SHA-256 9f2c…a41e</p>
    </figure>
  );
}
