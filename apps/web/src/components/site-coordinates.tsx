import { directionsUrl, formatCoordinates, mapUrl, sitePosition } from "@tranche/domain";
import { CrosshairIcon } from "lucide-react";

/** A project's site position, with links to the map and to directions; nothing when it has none. */
export function SiteCoordinates({
  project,
}: {
  project: { siteLatitude: number | null; siteLongitude: number | null };
}) {
  const site = sitePosition(project);
  if (!site) return null;
  return (
    <p
      className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground"
      data-testid="site-coordinates"
    >
      <CrosshairIcon className="size-4" aria-hidden />
      <span className="tabular-nums">{formatCoordinates(site)}</span>
      <a href={mapUrl(site)} target="_blank" rel="noreferrer" className="font-medium text-blue-700 hover:underline">
        Map
      </a>
      <a
        href={directionsUrl(site)}
        target="_blank"
        rel="noreferrer"
        className="font-medium text-blue-700 hover:underline"
      >
        Directions
      </a>
    </p>
  );
}
