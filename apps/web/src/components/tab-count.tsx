/** A list tab's count beside its label: "Verified 12", read as such by screen readers; nothing until it is known. */
export function TabCount({ count }: { count: number | undefined }) {
  if (count === undefined) return null;
  return (
    <>
      {" "}
      <span className="ml-1 rounded-full bg-slate-200/80 px-1.5 text-xs font-medium tabular-nums text-slate-600">
        {count.toLocaleString("en-US")}
      </span>
    </>
  );
}
