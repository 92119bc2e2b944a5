import { directionsUrl, distanceMeters, formatCoordinates, formatDistance, type LatLng } from "@tranche/domain";
import { MapPinIcon, NavigationIcon } from "lucide-react";
import type { PositionState } from "../hooks/use-position";

/** The site's coordinates, how far the verifier is from it, and directions in the phone's maps app. */
export function SiteLine({
  site,
  position,
  location,
}: {
  site: LatLng | null;
  position: PositionState;
  location: string;
}) {
  if (!site) {
    return (
      <p className="flex items-center gap-1.5 text-sm text-slate-600">
        <MapPinIcon className="size-4 shrink-0 text-slate-400" aria-hidden />
        {location} · no site coordinates given
      </p>
    );
  }
  const distance = position.status === "known" ? distanceMeters(position.position, site) : null;
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <p className="grid text-sm text-slate-700">
        <span className="flex items-center gap-1.5">
          <MapPinIcon className="size-4 shrink-0 text-slate-500" aria-hidden />
          <span className="font-medium tabular-nums" data-testid="site-coordinates">
            {formatCoordinates(site)}
          </span>
        </span>
        <span className="pl-5.5 text-xs text-slate-600" data-testid="site-distance">
          {distance === null ? location : `${formatDistance(distance)} from you · ${location}`}
        </span>
      </p>
      <a
        href={directionsUrl(site)}
        target="_blank"
        rel="noreferrer"
        className="inline-flex h-9 items-center gap-1.5 rounded-md border border-input bg-white px-3 text-sm font-medium text-slate-800 hover:bg-muted"
      >
        <NavigationIcon className="size-4" aria-hidden /> Directions
      </a>
    </div>
  );
}

/** Where the device is, in a line: distances need it, captures carry it. */
export function PositionNote({ position }: { position: PositionState }) {
  const text =
    position.status === "known"
      ? `Your position is known${position.position.accuracy === null ? "" : ` to ±${formatDistance(position.position.accuracy)}`}.`
      : position.status === "locating"
        ? "Finding your position…"
        : position.reason;
  return (
    <p className="text-xs text-slate-600" data-testid="position-note">
      {text}
    </p>
  );
}
