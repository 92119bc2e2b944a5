import { z } from "zod";

/** A session must have passed the second factor this recently before acting on money or access. */
export const SECOND_FACTOR_VALID_HOURS = 12;
export const RECOVERY_CODE_COUNT = 10;

/** A six-digit code from an authenticator app (spaces allowed, as apps show "123 456"). */
export const totpCodeSchema = z
  .string({ error: "Enter the 6-digit code from your authenticator app." })
  .transform((v) => v.replace(/\s+/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, { error: "Enter the 6-digit code from your authenticator app." }));

/** A recovery code as printed ("abcde-fghij"); case, spaces and dashes do not matter. */
export const recoveryCodeSchema = z
  .string({ error: "Enter one of your recovery codes." })
  .transform((v) => v.toLowerCase().replace(/[\s-]+/g, ""))
  .pipe(z.string().regex(/^[a-z2-7]{10}$/, { error: "That is not a recovery code (10 letters and digits)." }));

export const enableTotpSchema = z.strictObject({ code: totpCodeSchema });

/** Passing the second factor: a code from the app, or one recovery code. */
export const secondFactorSchema = z
  .strictObject({ code: totpCodeSchema.optional(), recoveryCode: recoveryCodeSchema.optional() })
  .refine((v) => (v.code === undefined) !== (v.recoveryCode === undefined), {
    path: ["code"],
    error: "Enter the 6-digit code from your authenticator app, or a recovery code.",
  });

export const transferOwnershipSchema = z.strictObject({
  userId: z.uuid({ error: "Choose the new owner." }),
});
