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

/** A fresh position for a capture, or null when the device cannot give one in time. */
export function currentPosition(): Promise<DevicePosition | null> {
  if (!("geolocation" in navigator)) return Promise.resolve(null);
  return new Promise((resolve) =>
    navigator.geolocation.getCurrentPosition(
      (p) => resolve(toPosition(p)),
      () => resolve(null),
      { enableHighAccuracy: true, maximumAge: 15_000, timeout: 15_000 },
    ),
  );
}
