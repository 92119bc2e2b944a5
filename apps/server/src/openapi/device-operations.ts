import {
  passkeySignInSchema,
  pushSubscriptionSchema,
  pushUnsubscribeSchema,
  registerPasskeySchema,
} from "@tranche/domain";
import type { Operation } from "./operations";

type Rest = Omit<Operation, "method" | "path" | "auth"> & Partial<Pick<Operation, "auth">>;
type Get = (path: string, rest: Rest) => Operation;
type Write = (method: "post" | "put" | "patch" | "delete", path: string, rest: Rest) => Operation;

const ID = "0b9e4c2a-5d7f-4e1b-9a3c-6f8d2e4b7a10";
const B64 = "AAECAwQFBgcICQoLDA0ODw";
const passkey = {
  id: ID,
  deviceName: "Work phone",
  createdAt: "2026-12-14T09:00:00.000Z",
  lastUsedAt: "2026-12-14T11:00:00.000Z",
  synced: true,
};
const assertion = {
  id: B64,
  rawId: B64,
  type: "public-key",
  clientExtensionResults: {},
  response: { clientDataJSON: B64, authenticatorData: B64, signature: B64, userHandle: B64 },
};
const requestOptions = {
  challenge: B64,
  rpId: "tranche.example",
  timeout: 300000,
  userVerification: "required",
  allowCredentials: [],
};
const ENROLLED_NOTE =
  "Once a second factor is set up, the session must have passed it within 12 hours, else 403 `mfa_required`.";

/** Passkeys (WebAuthn) and Web Push: what a person's devices do (issue 24). */
export function deviceOperations(get: Get, write: Write): Operation[] {
  return [
    get("/api/auth/passkeys", {
      id: "listPasskeys",
      tag: "Security",
      summary: "The caller's passkeys (revoked ones are not listed)",
      response: "The passkeys, newest first: device name, created, last used.",
      example: { items: [passkey] },
    }),
    write("post", "/api/auth/passkeys/registration-options", {
      id: "passkeyRegistrationOptions",
      tag: "Security",
      summary: "Options for navigator.credentials.create(): a discoverable passkey with user verification",
      description: `The challenge is good once, for five minutes. ${ENROLLED_NOTE}`,
      response: "PublicKeyCredentialCreationOptionsJSON.",
      example: {
        challenge: B64,
        rp: { name: "Tranche", id: "tranche.example" },
        user: { id: B64, name: "verifier@tranche.app", displayName: "Maria Santos" },
        pubKeyCredParams: [{ alg: -7, type: "public-key" }],
        authenticatorSelection: { residentKey: "required", userVerification: "required" },
      },
    }),
    write("post", "/api/auth/passkeys", {
      id: "registerPasskey",
      tag: "Security",
      summary: "Register a passkey: the browser's answer to the registration options, and a name for the device",
      description: `User verification is required. This session passes the second factor. ${ENROLLED_NOTE}`,
      body: registerPasskeySchema,
      bodyExample: {
        name: "Work phone",
        response: {
          id: B64,
          rawId: B64,
          type: "public-key",
          clientExtensionResults: {},
          response: { clientDataJSON: B64, attestationObject: B64, transports: ["internal"] },
        },
      },
      created: true,
      response: "The passkey.",
      example: passkey,
      errors: [403, 409],
    }),
    write("delete", "/api/auth/passkeys/{id}", {
      id: "revokePasskey",
      tag: "Security",
      summary: "Revoke one of the caller's passkeys: it is refused from then on",
      description: "Needs a session that passed the second factor within 12 hours. Other sessions must pass it again.",
      status: 204,
      response: "Revoked.",
    }),
    write("post", "/api/auth/passkeys/sign-in-options", {
      id: "passkeySignInOptions",
      tag: "Auth",
      auth: "public",
      summary: "Options for navigator.credentials.get() to sign in with a passkey (names no account)",
      description: "Limited per IP like password sign-ins. The challenge is good once, for five minutes.",
      response: "PublicKeyCredentialRequestOptionsJSON.",
      example: requestOptions,
      errors: [429],
    }),
    write("post", "/api/auth/passkeys/sign-in", {
      id: "signInWithPasskey",
      tag: "Auth",
      auth: "public",
      summary: "Sign in with a passkey (user verification required); the session has passed the second factor",
      body: passkeySignInSchema,
      bodyExample: { response: assertion },
      response: "The user; the session cookie is set.",
      example: { user: { id: ID, name: "Maria Santos", email: "verifier@tranche.app", role: "verifier" } },
      errors: [],
    }),
    write("post", "/api/auth/mfa/passkey-options", {
      id: "secondFactorPasskeyOptions",
      tag: "Security",
      summary: "Options for passing the second factor with one of the caller's passkeys",
      description:
        "Then POST /api/auth/mfa/verify (or any call that takes a code) with `passkey`: the browser's answer.",
      response: "PublicKeyCredentialRequestOptionsJSON allowing the caller's passkeys.",
      example: { ...requestOptions, allowCredentials: [{ id: B64, type: "public-key", transports: ["internal"] }] },
      errors: [],
    }),
    get("/api/push/vapid-public-key", {
      id: "getVapidPublicKey",
      tag: "Push",
      auth: "public",
      summary: "The public VAPID key browsers subscribe to push with (applicationServerKey)",
      response: "The key, base64url (65-byte uncompressed P-256 point).",
      example: { publicKey: "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM" },
    }),
    write("post", "/api/push/subscriptions", {
      id: "subscribePush",
      tag: "Push",
      summary: "Enable push on this device: the browser's PushSubscription as JSON",
      description:
        "The endpoint must be https and not a private address. A device another person had enabled moves to the caller.",
      body: pushSubscriptionSchema,
      bodyExample: {
        endpoint: "https://push.example/send/abc123",
        expirationTime: null,
        keys: {
          p256dh: "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
          auth: "tBHItJI5svbpez7KI4CCXg",
        },
      },
      created: true,
      response: "The subscription's id and the device it was read as.",
      example: { id: ID, device: "Chrome on Android" },
      errors: [],
    }),
    write("delete", "/api/push/subscriptions", {
      id: "unsubscribePush",
      tag: "Push",
      summary: "Disable push on this device",
      body: pushUnsubscribeSchema,
      bodyExample: { endpoint: "https://push.example/send/abc123" },
      status: 204,
      response: "Disabled (also when it was not on).",
      errors: [],
    }),
  ];
}
