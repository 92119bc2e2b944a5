// The small answers: sign-in and session, demo accounts, counts and acknowledgements.
import { z } from "zod";
import { id, instant, role, shape } from "./common";
import { userSchema } from "./projects";

// A union, not .nullable(): the document then says "User or null" (a nullable reference lost its null).
export const sessionAnswerSchema = shape({ user: z.union([userSchema, z.null()]) });
export type SessionAnswer = z.infer<typeof sessionAnswerSchema>;

/** Signed in (or an invitation accepted): the user; the session cookie is set. */
export const signedInSchema = shape({ user: userSchema });
export type SignedInDto = z.infer<typeof signedInSchema>;

export const createdIdSchema = shape({ id });

export const demoAccountsSchema = shape({
  enabled: z.boolean(),
  password: z.string().nullable(),
  accounts: z.array(shape({ email: z.string(), name: z.string(), role })),
});
export type DemoAccountsDto = z.infer<typeof demoAccountsSchema>;
export type DemoAccount = DemoAccountsDto["accounts"][number];

export const authOptionsSchema = shape({ signUpAllowed: z.boolean() });
export type AuthOptionsDto = z.infer<typeof authOptionsSchema>;

export const forgotPasswordAnswerSchema = shape({ message: z.string() });
export const passwordResetLookupSchema = shape({ expiresAt: instant });
export const emailVerifiedSchema = shape({ email: z.string(), emailVerifiedAt: instant });
export type EmailVerifiedDto = z.infer<typeof emailVerifiedSchema>;

export const unreadCountSchema = shape({ count: z.number().int() });
export const markedReadSchema = shape({ updated: z.number().int() });
export const signedOutSchema = shape({ signedOut: z.number().int() });

/** A webhook test event was queued; its delivery id is its `webhook-id`. */
export const testDeliverySchema = shape({ deliveryId: id });
/** A delivery was queued again. */
export const queuedSchema = shape({ ok: z.literal(true) });

/** WebAuthn options for the browser (PublicKeyCredentialCreationOptionsJSON or …RequestOptionsJSON), as the
 * WebAuthn library writes them; `challenge` is good once, for five minutes. */
export const webauthnOptionsSchema = z.looseObject({ challenge: z.string() });

/** The public VAPID key browsers subscribe to push with (base64url, a 65-byte uncompressed P-256 point). */
export const vapidPublicKeySchema = shape({ publicKey: z.string() });
export const pushSubscriptionAnswerSchema = shape({ id, device: z.string() });
