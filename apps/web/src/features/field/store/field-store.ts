// What a site visit needs, kept on the device for the signed-in verifier: who they are and their assignments (to
// start with no signal), each opened assignment's visit, and the evidence files they chose to keep. All encrypted.
import type { FieldAssignmentDto, FieldVisitDto, UserDto } from "@tranche/domain";
import { open, openBytes, seal, sealBytes } from "./crypto";
import { deviceKey, fieldDb } from "./db";

interface PersonData {
  user: UserDto;
  assignments?: { items: FieldAssignmentDto[]; savedAt: string };
}

async function keyed() {
  const db = await fieldDb();
  return { db, key: await deviceKey(db) };
}

async function readPerson(userId: string): Promise<PersonData | null> {
  const { db, key } = await keyed();
  const record = await db.get("people", userId);
  return record ? open<PersonData>(key, record.data) : null;
}

async function writePerson(userId: string, data: PersonData): Promise<void> {
  const { db, key } = await keyed();
  await db.put("people", { userId, savedAt: new Date().toISOString(), data: await seal(key, data) });
}

/**
 * Changes a person's record as one step. The shell remembering who is signed in reads the record and writes it back
 * whole, while the list saves itself into the same record: interleaved, the shell wrote back the list it had read
 * (or none, on a first visit with a fast answer), and the device lost the list it had just been given. A Web Lock
 * keeps them apart, across tabs too (an IndexedDB transaction cannot: it commits while WebCrypto works).
 */
function changePerson(userId: string, change: (known: PersonData | null) => PersonData): Promise<void> {
  const work = async () => writePerson(userId, change(await readPerson(userId)));
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  return locks ? locks.request(`tranche-field-person:${userId}`, work) : work();
}

/** Remembers who is signed in, so the field view opens on this device with no signal. */
export async function rememberPerson(user: UserDto): Promise<void> {
  await changePerson(user.id, (known) => ({ ...known, user }));
}

/** The person last signed in on this device (while offline, the session cannot be asked for). */
export async function lastPerson(): Promise<UserDto | null> {
  const { db, key } = await keyed();
  const people = await db.getAll("people");
  const latest = people.sort((a, b) => b.savedAt.localeCompare(a.savedAt))[0];
  return latest ? (await open<PersonData>(key, latest.data)).user : null;
}

export async function saveAssignments(user: UserDto, items: FieldAssignmentDto[]): Promise<void> {
  await changePerson(user.id, () => ({ user, assignments: { items, savedAt: new Date().toISOString() } }));
}

export async function savedAssignments(userId: string): Promise<PersonData["assignments"] | null> {
  return (await readPerson(userId))?.assignments ?? null;
}

export async function saveVisit(userId: string, visit: FieldVisitDto): Promise<void> {
  const { db, key } = await keyed();
  await db.put("visits", {
    userId,
    milestoneId: visit.assignment.milestoneId,
    savedAt: new Date().toISOString(),
    visit: await seal(key, visit),
  });
}

export async function savedVisit(
  userId: string,
  milestoneId: string,
): Promise<{ visit: FieldVisitDto; savedAt: string } | null> {
  const { db, key } = await keyed();
  const record = await db.get("visits", [userId, milestoneId]);
  return record ? { visit: await open<FieldVisitDto>(key, record.visit), savedAt: record.savedAt } : null;
}

/** The assignments opened (and so kept) on this device. */
export async function savedVisitIds(userId: string): Promise<Set<string>> {
  const db = await fieldDb();
  const records = await db.getAllFromIndex("visits", "byUser", userId);
  return new Set(records.map((r) => r.milestoneId));
}

const documentId = (userId: string, evidenceId: string) => `${userId}:${evidenceId}`;

/** Keeps an evidence file's bytes on the device, for a visit with no signal. */
export async function keepDocument(
  userId: string,
  milestoneId: string,
  evidenceId: string,
  bytes: ArrayBuffer,
): Promise<void> {
  const { db, key } = await keyed();
  await db.put("documents", {
    id: documentId(userId, evidenceId),
    userId,
    milestoneId,
    evidenceId,
    savedAt: new Date().toISOString(),
    bytes: await sealBytes(key, bytes),
  });
}

export async function keptDocument(userId: string, evidenceId: string): Promise<ArrayBuffer | null> {
  const { db, key } = await keyed();
  const record = await db.get("documents", documentId(userId, evidenceId));
  return record ? openBytes(key, record.bytes) : null;
}

export async function keptDocumentIds(userId: string, milestoneId: string): Promise<Set<string>> {
  const db = await fieldDb();
  const records = await db.getAllFromIndex("documents", "byMilestone", [userId, milestoneId]);
  return new Set(records.map((r) => r.evidenceId));
}

export async function forgetDocument(userId: string, evidenceId: string): Promise<void> {
  const db = await fieldDb();
  await db.delete("documents", documentId(userId, evidenceId));
}
