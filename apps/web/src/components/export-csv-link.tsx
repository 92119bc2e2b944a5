import { DownloadIcon } from "lucide-react";
import { Button } from "@/components/ui/button";

/**
 * Downloads a list as CSV from the server with the filters and the sort the list shows now (empty ones left out),
 * so the rows come in the order the list shows them; the server streams it, so a long list is no burden on the page.
 */
export function ExportCsvLink({ path, filters }: { path: string; filters: Record<string, string | undefined> }) {
  const query = new URLSearchParams(
    Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1])),
  ).toString();
  return (
    <Button asChild variant="outline" size="sm">
      <a href={query ? `${path}?${query}` : path} download>
        <DownloadIcon aria-hidden />
        Export CSV
      </a>
    </Button>
  );
}
