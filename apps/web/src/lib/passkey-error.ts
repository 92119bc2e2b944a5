import { WebAuthnError } from "@simplewebauthn/browser";
import { ApiError, errorMessage } from "./api-client";

/** What to tell the person when the browser's passkey prompt, or the server, refused. */
export function passkeyErrorMessage(error: unknown): string {
  if (error instanceof WebAuthnError && error.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") {
    return "This device already holds a passkey for your account.";
  }
  if (error instanceof Error && (error.name === "NotAllowedError" || error.name === "AbortError")) {
    return "The passkey prompt was closed or timed out. Try again when you are ready.";
  }
  if (error instanceof ApiError) return error.fieldErrors.passkey ?? error.fieldErrors.response ?? error.message;
  return errorMessage(error);
}
