import { useEffect } from "react";

/** Each page names itself in the tab and history: "Mojave Solar Farm Phase II · Tranche". */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · Tranche` : "Tranche";
  }, [title]);
}
