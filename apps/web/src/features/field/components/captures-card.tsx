import {
  distanceMeters,
  formatCoordinates,
  formatDateTime,
  formatDistance,
  formatFileSize,
  type LatLng,
} from "@tranche/domain";
import { CameraIcon, FilePlusIcon, MapPinIcon, TriangleAlertIcon, VideoIcon } from "lucide-react";
import { useId, useRef, useState } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { toast } from "@/components/ui/toaster";
import type { QueueItem } from "../store/queue";
import { QueueStatusBadge } from "./queue-list";

const INPUTS = [
  { key: "photo", label: "Take photo", accept: "image/*", capture: "environment", Icon: CameraIcon },
  { key: "video", label: "Record video", accept: "video/*", capture: "environment", Icon: VideoIcon },
  {
    key: "document",
    label: "Add document",
    accept: "image/*,application/pdf,.pdf",
    capture: undefined,
    Icon: FilePlusIcon,
  },
] as const;

/**
 * Photos, videos and documents taken on site: each is hashed on the device (SHA-256) and tagged with the device's
 * position and the time, then queued with its bytes (encrypted) until it can be sent.
 */
export function CapturesCard({
  captures,
  site,
  radiusM,
  disabled,
  onCapture,
}: {
  captures: QueueItem[];
  site: LatLng | null;
  radiusM: number;
  disabled: boolean;
  onCapture: (file: File) => Promise<void>;
}) {
  const id = useId();
  const inputs = useRef<Record<string, HTMLInputElement | null>>({});
  const [busy, setBusy] = useState(false);

  async function take(files: FileList | null, key: string) {
    const list = files ? [...files] : [];
    setBusy(true);
    try {
      for (const file of list) {
        if (file.size === 0) {
          toast.error("Capture not kept", `"${file.name}" is empty.`);
          continue;
        }
        await onCapture(file);
      }
      if (list.length)
        toast.success(
          list.length === 1 ? "Capture kept" : `${list.length} captures kept`,
          "Sent in order when there is a connection.",
        );
    } catch (error) {
      toast.error("Capture not kept", error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
      const input = inputs.current[key];
      if (input) input.value = "";
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Captures</CardTitle>
        <p className="text-sm text-muted-foreground">
          Tagged with where and when you take them, and hashed on this device.
        </p>
      </CardHeader>
      <CardContent className="grid gap-3">
        <div className="grid grid-cols-3 gap-2">
          {INPUTS.map(({ key, label, accept, capture, Icon }) => (
            <label
              key={key}
              htmlFor={`${id}-${key}`}
              className={`flex cursor-pointer flex-col items-center gap-1 rounded-md border border-dashed border-slate-300 bg-slate-50 px-2 py-3 text-center text-xs font-medium text-slate-800 hover:bg-slate-100 focus-within:outline-2 focus-within:outline-ring ${
                disabled || busy ? "pointer-events-none opacity-50" : ""
              }`}
            >
              <Icon className="size-5 text-slate-600" aria-hidden />
              {label}
              <input
                ref={(el) => {
                  inputs.current[key] = el;
                }}
                id={`${id}-${key}`}
                type="file"
                accept={accept}
                capture={capture}
                multiple={key === "document"}
                className="sr-only"
                disabled={disabled || busy}
                onChange={(e) => void take(e.target.files, key)}
              />
            </label>
          ))}
        </div>
        {captures.length ? (
          <ul className="grid gap-2" aria-label="Captures on this device">
            {captures.map((item) =>
              item.action.kind === "evidence" ? (
                <li key={item.seq} className="grid gap-1 rounded-md border bg-white p-3 text-sm" data-testid="capture">
                  <div className="flex items-start justify-between gap-2">
                    <span className="min-w-0 truncate font-medium text-slate-900">{item.action.name}</span>
                    <QueueStatusBadge status={item.status} />
                  </div>
                  <p className="text-xs text-slate-600">
                    {formatFileSize(item.action.size)} · SHA-256 {item.action.capture?.sha256.slice(0, 12) ?? "—"}…
                  </p>
                  <CaptureWhere capture={item.action.capture} site={site} radiusM={radiusM} />
                </li>
              ) : null,
            )}
          </ul>
        ) : null}
      </CardContent>
    </Card>
  );
}

function CaptureWhere({
  capture,
  site,
  radiusM,
}: {
  capture: (LatLng & { accuracy?: number | null; capturedAt: string }) | null;
  site: LatLng | null;
  radiusM: number;
}) {
  if (!capture) {
    return (
      <p className="flex gap-1.5 text-xs text-amber-800">
        <TriangleAlertIcon className="mt-0.5 size-3.5 shrink-0" aria-hidden />
        No position from the device: sent without location and time tags.
      </p>
    );
  }
  const distance = site ? distanceMeters(capture, site) : null;
  return (
    <>
      <p className="flex gap-1.5 text-xs text-slate-700">
        <MapPinIcon className="mt-0.5 size-3.5 shrink-0 text-slate-500" aria-hidden />
        {formatDateTime(capture.capturedAt)} at {formatCoordinates(capture)}
        {capture.accuracy == null ? "" : ` (±${formatDistance(capture.accuracy)})`}
        {distance === null ? "" : ` · ${formatDistance(distance)} from the site`}
      </p>
      {distance !== null && distance > radiusM ? (
        <p className="flex gap-1.5 text-xs text-red-800" data-testid="capture-far">
          <TriangleAlertIcon className="mt-0.5 size-3.5 shrink-0" aria-hidden />
          Farther than {radiusM.toLocaleString("en-US")} m from the site: it will be flagged for everyone who sees it.
        </p>
      ) : null}
    </>
  );
}
