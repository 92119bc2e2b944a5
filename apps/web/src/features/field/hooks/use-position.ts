import type { LatLng } from "@tranche/domain";
import { useEffect, useState } from "react";

export interface DevicePosition extends LatLng {
  /** Metres, as the device states it. */
  accuracy: number | null;
  at: number;
}

export type PositionState =
  | { status: "locating" }
  | { status: "known"; position: DevicePosition }
  | { status: "unavailable"; reason: string };

function toPosition(p: GeolocationPosition): DevicePosition {
  return {
    latitude: p.coords.latitude,
    longitude: p.coords.longitude,
    accuracy: Number.isFinite(p.coords.accuracy) ? p.coords.accuracy : null,
    at: p.timestamp,
  };
}

function reasonOf(error: GeolocationPositionError): string {
  if (error.code === error.PERMISSION_DENIED)
    return "Location is off for Tranche: allow it to see distances and tag captures.";
  if (error.code === error.TIMEOUT) return "The device has not found its position yet.";
  return "The device cannot tell its position.";
}

/** The device's position, followed while the page is open (the Geolocation API, high accuracy). */
export function usePosition(): PositionState {
  const supported = typeof navigator !== "undefined" && "geolocation" in navigator;
  const [state, setState] = useState<PositionState>(
    supported ? { status: "locating" } : { status: "unavailable", reason: "This browser cannot tell its position." },
  );
  useEffect(() => {
    if (!supported) return;
    const id = navigator.geolocation.watchPosition(
      (p) => setState({ status: "known", position: toPosition(p) }),
      (error) => setState((now) => (now.status === "known" ? now : { status: "unavailable", reason: reasonOf(error) })),
      { enableHighAccuracy: true, maximumAge: 30_000, timeout: 20_000 },
    );
    return () => navigator.geolocation.clearWatch(id);
  }, [supported]);
  return state;
}

/** How old the followed position may be and still tag a capture without asking the device again. */
export const CAPTURE_FIX_MAX_AGE_MS = 60_000;

/**
 * The position to tag a capture with: the followed position when it is recent (the watch reports every move, so it
 * is what the device knows now, and the capture is queued at once), else a fresh one asked of the device; null
 * when the device cannot give one in time.
 */
export function capturePosition(followed: PositionState): Promise<DevicePosition | null> {
  if (followed.status === "known" && Date.now() - followed.position.at <= CAPTURE_FIX_MAX_AGE_MS)
    return Promise.resolve(followed.position);
  if (!("geolocation" in navigator)) return Promise.resolve(null);
  return new Promise((resolve) =>
    navigator.geolocation.getCurrentPosition(
      (p) => resolve(toPosition(p)),
      () => resolve(null),
      { enableHighAccuracy: true, maximumAge: 15_000, timeout: 15_000 },
    ),
  );
}
