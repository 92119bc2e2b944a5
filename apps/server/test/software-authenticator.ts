// A software passkey authenticator for tests: a P-256 key pair per credential, and the CBOR and signatures a real
// authenticator produces (WebAuthn Level 3 §6: authenticator data, "none" attestation, ES256 assertions), so the
// server's checks run against what a browser would send. Flags can be set wrong on purpose (no user verification).
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";

type Cbor = number | string | Uint8Array | Cbor[] | Map<number | string, Cbor>;

/** The CBOR subset WebAuthn uses (RFC 8949): unsigned/negative integers, byte and text strings, arrays, maps. */
export function cbor(value: Cbor): Buffer {
  const head = (major: number, n: number): Buffer => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    if (n < 65536) return Buffer.from([(major << 5) | 25, n >> 8, n & 255]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") {
    const text = Buffer.from(value, "utf8");
    return Buffer.concat([head(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const parts = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest();
const b64url = (data: Buffer | Uint8Array) => Buffer.from(data).toString("base64url");

export interface Flags {
  /** User present (UP). */
  up?: boolean;
  /** User verified (UV): the biometric or PIN. */
  uv?: boolean;
}

function flagsByte({ up = true, uv = true }: Flags, attested: boolean): number {
  return (up ? 0x01 : 0) | (uv ? 0x04 : 0) | (attested ? 0x40 : 0);
}

export interface SoftwareCredential {
  id: Buffer;
  privateKey: KeyObject;
  userHandle: string;
  counter: number;
}

export interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

export interface RequestOptions {
  challenge: string;
  rpId?: string;
}

/** A browser and its authenticator, at one origin. */
export function softwareAuthenticator(origin: string) {
  const rpId = new URL(origin).hostname;
  const clientData = (type: "webauthn.create" | "webauthn.get", challenge: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  return {
    /** navigator.credentials.create(): a new credential and its registration response JSON. */
    create(options: CreationOptions, flags: Flags = {}) {
      const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
      const jwk = publicKey.export({ format: "jwk" });
      const cose = cbor(
        new Map<number, Cbor>([
          [1, 2], // kty: EC2
          [3, -7], // alg: ES256
          [-1, 1], // crv: P-256
          [-2, Buffer.from(jwk.x as string, "base64url")],
          [-3, Buffer.from(jwk.y as string, "base64url")],
        ]),
      );
      const id = randomBytes(32);
      const credIdLength = Buffer.alloc(2);
      credIdLength.writeUInt16BE(id.length);
      const authData = Buffer.concat([
        sha256(options.rp.id ?? rpId),
        Buffer.from([flagsByte(flags, true)]),
        Buffer.alloc(4), // signature counter 0: this authenticator counts from its first use
        Buffer.alloc(16), // AAGUID: none
        credIdLength,
        id,
        cose,
      ]);
      const attestationObject = cbor(
        new Map<string, Cbor>([
          ["fmt", "none"],
          ["attStmt", new Map()],
          ["authData", authData],
        ]),
      );
      const credential: SoftwareCredential = { id, privateKey, userHandle: options.user.id, counter: 0 };
      const response = {
        id: b64url(id),
        rawId: b64url(id),
        type: "public-key" as const,
        clientExtensionResults: {},
        authenticatorAttachment: "platform" as const,
        response: {
          clientDataJSON: b64url(clientData("webauthn.create", options.challenge)),
          attestationObject: b64url(attestationObject),
          transports: ["internal"],
        },
      };
      return { credential, response };
    },

    /** navigator.credentials.get() with this credential: the assertion response JSON. */
    get(credential: SoftwareCredential, options: RequestOptions, flags: Flags = {}) {
      credential.counter += 1;
      const counter = Buffer.alloc(4);
      counter.writeUInt32BE(credential.counter);
      const authData = Buffer.concat([sha256(options.rpId ?? rpId), Buffer.from([flagsByte(flags, false)]), counter]);
      const clientDataJSON = clientData("webauthn.get", options.challenge);
      const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
      return {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: "public-key" as const,
        clientExtensionResults: {},
        authenticatorAttachment: "platform" as const,
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
          userHandle: credential.userHandle,
        },
      };
    },
  };
}
