import { describe, expect, it } from "vitest";
import {
  assessCapture,
  compareAssignments,
  createProjectSchema,
  directionsUrl,
  distanceMeters,
  type FieldUrgency,
  fieldUrgency,
  formatCoordinates,
  formatDistance,
  updateProjectSchema,
  verificationWindow,
} from "../src";

describe("distanceMeters (haversine)", () => {
  it("measures known distances within half a percent", () => {
    const paris = { latitude: 48.8566, longitude: 2.3522 };
    const london = { latitude: 51.5074, longitude: -0.1278 };
    expect(distanceMeters(paris, london) / 1000).toBeCloseTo(343.5, 0);
    expect(distanceMeters(paris, paris)).toBe(0);
    // A degree of latitude is ~111.2 km everywhere.
    expect(distanceMeters({ latitude: 0, longitude: 10 }, { latitude: 1, longitude: 10 })).toBeCloseTo(111_195, -2);
    // Across the antimeridian, the short way round.
    expect(distanceMeters({ latitude: 0, longitude: 179.9 }, { latitude: 0, longitude: -179.9 })).toBeLessThan(23_000);
  });

  it("formats positions, distances and directions for people and maps apps", () => {
    expect(formatCoordinates({ latitude: 35.80214, longitude: -114.97936 })).toBe("35.80214° N, 114.97936° W");
    expect(formatCoordinates({ latitude: -0.10221, longitude: 34.76171 })).toBe("0.10221° S, 34.76171° E");
    expect([850.4, 4210, 1_240_000].map(formatDistance)).toEqual(["850 m", "4.2 km", "1,240 km"]);
    expect(directionsUrl({ latitude: 1.5, longitude: -2.25 })).toBe(
      "https://www.google.com/maps/dir/?api=1&destination=1.5,-2.25",
    );
  });
});

describe("site coordinates in the project schemas", () => {
  const base = { name: "P", description: "D", location: "L", totalCapital: 10 };

  it("take both or neither, in range", () => {
    expect(createProjectSchema.safeParse({ ...base, siteLatitude: 1, siteLongitude: 2 }).success).toBe(true);
    expect(createProjectSchema.safeParse(base).success).toBe(true);
    const half = createProjectSchema.safeParse({ ...base, siteLatitude: 1 });
    expect(half.success).toBe(false);
    expect(half.error?.issues[0]?.path).toEqual(["siteLongitude"]);
    expect(createProjectSchema.safeParse({ ...base, siteLatitude: -90.1, siteLongitude: 0 }).success).toBe(false);
    expect(createProjectSchema.safeParse({ ...base, siteLatitude: 0, siteLongitude: 180.1 }).success).toBe(false);
  });

  it("let an update move one coordinate alone, but not clear one of a pair sent together", () => {
    expect(updateProjectSchema.safeParse({ siteLatitude: 3 }).success).toBe(true);
    expect(updateProjectSchema.safeParse({ siteLatitude: null, siteLongitude: null }).success).toBe(true);
    expect(updateProjectSchema.safeParse({ siteLatitude: null, siteLongitude: 4 }).success).toBe(false);
  });
});

describe("the verification window", () => {
  const received = new Date("2026-03-20T12:00:00Z");
  const base = {
    projectStartDate: "2026-01-10",
    milestoneCreatedAt: new Date("2026-01-15T09:00:00Z"),
    dueDate: "2026-03-01",
    startedAt: null,
    slaDays: 3,
    receivedAt: received,
  };

  it("opens at the project's start (or the milestone's creation, if earlier) and closes SLA days after the due date", () => {
    const window = verificationWindow(base);
    expect(window.opens.toISOString()).toBe("2026-01-10T00:00:00.000Z");
    expect(window.closes.toISOString()).toBe("2026-03-05T00:00:00.000Z");
    const noStart = verificationWindow({ ...base, projectStartDate: null });
    expect(noStart.opens.toISOString()).toBe("2026-01-15T09:00:00.000Z");
    const laterStart = verificationWindow({ ...base, projectStartDate: "2026-02-01" });
    expect(laterStart.opens.toISOString()).toBe("2026-01-15T09:00:00.000Z");
  });

  it("stays open SLA days after a verification started late, but never past the upload", () => {
    const late = verificationWindow({ ...base, startedAt: new Date("2026-03-15T08:00:00Z") });
    // 2026-03-18T08:00 is before the upload (03-20), so it closes then.
    expect(late.closes.toISOString()).toBe("2026-03-18T08:00:00.000Z");
    const early = verificationWindow({ ...base, dueDate: "2026-04-30" });
    expect(early.closes.getTime()).toBe(received.getTime() + 5 * 60_000);
  });

  const site = { latitude: 35.80214, longitude: -114.97936 };
  const window = verificationWindow(base);
  const assess = (capture: { latitude: number; longitude: number; capturedAt: string }, accuracy: number | null = 10) =>
    assessCapture({
      capture: { ...capture, accuracy, capturedAt: new Date(capture.capturedAt) },
      site,
      radiusM: 1000,
      window,
      receivedAt: received,
    });

  it("flags a capture beyond the radius, and one outside the window, each once", () => {
    const inside = assess({ ...site, capturedAt: "2026-03-02T10:00:00Z" });
    expect(inside.flags).toEqual([]);
    expect(inside.distanceToSiteM).toBe(0);
    const far = assess({ latitude: 35.80214, longitude: -114.92396, capturedAt: "2026-03-02T10:00:00Z" });
    expect(far.flags.map((f) => [f.code, f.severity])).toEqual([["far_from_site", "high"]]);
    expect(far.flags[0]?.message).toBe(
      "Captured 5.0 km from the project's site, farther than the 1,000 m allowed (the device gave its position to ±10 m).",
    );
    const before = assess({ ...site, capturedAt: "2025-12-24T10:00:00Z" });
    expect(before.flags.map((f) => f.code)).toEqual(["outside_window"]);
    expect(before.flags[0]?.message).toBe(
      "Captured Dec 24, 2025 10:00 UTC, before the milestone's verification window opened (Jan 10, 2026 00:00 UTC).",
    );
    const after = assess({ ...site, capturedAt: "2026-03-10T10:00:00Z" });
    expect(after.flags[0]?.message).toContain(
      "after the milestone's verification window closed (Mar 5, 2026 00:00 UTC)",
    );
    const future = assess({ ...site, capturedAt: "2026-03-21T10:00:00Z" });
    expect(future.flags[0]?.message).toContain("later than it was uploaded");
  });

  it("measures nothing, and flags no distance, without site coordinates", () => {
    const result = assessCapture({
      capture: { latitude: 0, longitude: 0, accuracy: null, capturedAt: new Date("2026-03-02T10:00:00Z") },
      site: null,
      radiusM: 1000,
      window,
      receivedAt: received,
    });
    expect(result).toEqual({ distanceToSiteM: null, flags: [] });
  });
});

describe("field urgency", () => {
  const now = new Date("2026-05-10T12:00:00Z");
  const item = { dueDate: "2026-06-30", status: "pending" as const, startedAt: null, resubmitted: false };

  it("ranks overdue, due soon, resubmitted, new", () => {
    expect(fieldUrgency({ ...item, dueDate: "2026-05-01" }, 3, now)).toBe("overdue");
    expect(fieldUrgency({ ...item, status: "in_verification", startedAt: "2026-05-01T00:00:00Z" }, 3, now)).toBe(
      "overdue",
    );
    expect(fieldUrgency({ ...item, dueDate: "2026-05-15" }, 3, now)).toBe("due_soon");
    expect(fieldUrgency({ ...item, dueDate: "2026-05-15", resubmitted: true }, 3, now)).toBe("due_soon");
    expect(fieldUrgency({ ...item, resubmitted: true }, 3, now)).toBe("resubmitted");
    expect(fieldUrgency(item, 3, now)).toBe("new");
  });

  it("orders by urgency, then due date, then title", () => {
    const list: { urgency: FieldUrgency; dueDate: string; title: string }[] = [
      { urgency: "new", dueDate: "2026-06-01", title: "B" },
      { urgency: "overdue", dueDate: "2026-05-01", title: "C" },
      { urgency: "new", dueDate: "2026-06-01", title: "A" },
      { urgency: "resubmitted", dueDate: "2026-07-01", title: "D" },
      { urgency: "due_soon", dueDate: "2026-05-12", title: "E" },
    ];
    expect([...list].sort(compareAssignments).map((a) => a.title)).toEqual(["C", "E", "D", "A", "B"]);
  });
});
