// What a photo's EXIF says: when and where it was taken, by which camera, and which program last saved it.
import exifr from "exifr";

export interface PhotoMetadata {
  capturedAt: Date | null;
  latitude: number | null;
  longitude: number | null;
  make: string | null;
  model: string | null;
  software: string | null;
  /** Whether the file carries any EXIF block at all. */
  hasExif: boolean;
}

/** Programs that edit a photo (or make one); a camera or phone writes its own firmware name here. */
export const EDITING_SOFTWARE =
  /photoshop|lightroom|gimp|affinity|pixelmator|snapseed|picsart|facetune|paint\.net|canva|luminar|capture\s*one|darktable|photopea|fotor|vsco|meitu|remini/i;

/** File names cameras and phones give their photos: a photo named so claims to come straight from one. */
export const CAMERA_FILE_NAME = /^(?:img|dsc[nf]?|dcim|pxl|p\d{7}|gopr|dji|mvimg|photo)[-_ ]?\d/i;

export async function readPhotoMetadata(image: Buffer): Promise<PhotoMetadata> {
  // biome-ignore lint/suspicious/noExplicitAny: exifr answers a loose record of whatever tags the file has
  let tags: any;
  try {
    tags = await exifr.parse(image, { tiff: true, exif: true, gps: true, xmp: true, ifd1: false });
  } catch {
    tags = undefined;
  }
  const text = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : null);
  const date = (value: unknown) => (value instanceof Date && !Number.isNaN(value.getTime()) ? value : null);
  return {
    capturedAt: date(tags?.DateTimeOriginal) ?? date(tags?.CreateDate),
    latitude: typeof tags?.latitude === "number" ? tags.latitude : null,
    longitude: typeof tags?.longitude === "number" ? tags.longitude : null,
    make: text(tags?.Make),
    model: text(tags?.Model),
    software: text(tags?.Software) ?? text(tags?.CreatorTool),
    hasExif: tags !== undefined && tags !== null && Object.keys(tags).length > 0,
  };
}
