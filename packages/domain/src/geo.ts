// Positions on the Earth in decimal degrees (WGS 84, what phones and maps use): a project's site, a capture's tag.

export interface LatLng {
  latitude: number;
  longitude: number;
}

/** The mean Earth radius (IUGG), in metres: the haversine distance is within 0.5% of the ellipsoid's. */
const EARTH_RADIUS_M = 6_371_008.8;

const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** The great-circle distance between two positions, in metres (haversine). */
export function distanceMeters(a: LatLng, b: LatLng): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLng = radians(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A project's site position, or null when it has none (both coordinates, or neither, are stored). */
export function sitePosition(project: { siteLatitude: number | null; siteLongitude: number | null }): LatLng | null {
  return project.siteLatitude === null || project.siteLongitude === null
    ? null
    : { latitude: project.siteLatitude, longitude: project.siteLongitude };
}

/** "48.85837° N, 2.29448° E": five decimals is about a metre. */
export function formatCoordinates({ latitude, longitude }: LatLng): string {
  const part = (value: number, positive: string, negative: string) =>
    `${Math.abs(value).toFixed(5)}° ${value >= 0 ? positive : negative}`;
  return `${part(latitude, "N", "S")}, ${part(longitude, "E", "W")}`;
}

/** "850 m", "4.2 km", "1,240 km". */
export function formatDistance(meters: number): string {
  if (meters < 1000) return `${Math.round(meters)} m`;
  const km = meters / 1000;
  return km < 100 ? `${km.toFixed(1)} km` : `${Math.round(km).toLocaleString("en-US")} km`;
}

/** Opens turn-by-turn directions to the position in the phone's maps app (or Google Maps in a browser). */
export function directionsUrl({ latitude, longitude }: LatLng): string {
  return `https://www.google.com/maps/dir/?api=1&destination=${latitude},${longitude}`;
}

/** Shows the position on a map. */
export function mapUrl({ latitude, longitude }: LatLng): string {
  return `https://www.google.com/maps/search/?api=1&query=${latitude},${longitude}`;
}
