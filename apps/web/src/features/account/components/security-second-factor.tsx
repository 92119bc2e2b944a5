import { formatDateTime, type TotpSetupDto } from "@tranche/domain";
import { ShieldCheckIcon } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { LoadError, Skeleton } from "@/components/ui/feedback";
import { Field, Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { ApiError, errorMessage } from "@/lib/api-client";
import {
  type SecondFactorInput,
  useDisableTotp,
  useEnableTotp,
  useReplaceRecoveryCodes,
  useSecondFactorStatus,
  useStartTotpSetup,
} from "../api/second-factor";
import { ConfirmPasswordField, PASSWORD_MISSING } from "./confirm-password-field";
import { SecondFactorCodeForm } from "./second-factor-code-form";

/** Account → Security: the authenticator app (TOTP) and recovery codes; passkeys have their own card. */
export function SecuritySecondFactor() {
  const status = useSecondFactorStatus();
  // The set-up under way, and the password typed to start it: turning the app on sends it again.
  const [setup, setSetup] = useState<{ dto: TotpSetupDto; password: string } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [confirming, setConfirming] = useState<"replace" | "disable" | null>(null);
  const replace = useReplaceRecoveryCodes();
  const disable = useDisableTotp();
  // The card's content is swapped under the focused control (set-up, turn on, saved, replaced, turned off): focus goes
  // to what replaced it or to the card's heading, not to the page's start.
  const heading = useRef<HTMLHeadingElement>(null);
  const swapped = useRef(false);

  async function confirmed(input: SecondFactorInput, password: string) {
    if (confirming === "replace") {
      setCodes((await replace.mutateAsync({ ...input, password })).recoveryCodes);
      toast.success("New recovery codes", "Your old recovery codes no longer work.");
    } else {
      await disable.mutateAsync({ ...input, password });
      toast.success("Second factor turned off", "Your account is protected by your password only.");
    }
    swapped.current = true;
    setConfirming(null);
  }

  const data = status.data;
  return (
    <Card>
      <CardHeader>
        <h2 ref={heading} tabIndex={-1} className="text-base font-semibold leading-tight tracking-tight outline-none">
          Authenticator app
        </h2>
        <CardDescription>
          A code from an authenticator app (Google Authenticator, 1Password, Authy…) as well as your password.
          {data?.required
            ? " Your role needs a second factor (this app or a passkey) before approving, rejecting, assigning or changing access."
            : null}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {status.isPending ? <Skeleton className="h-16" /> : null}
        {status.isError ? (
          <LoadError title="Could not load your second factor" error={status.error} onRetry={() => status.refetch()} />
        ) : null}
        {codes ? (
          <RecoveryCodes
            codes={codes}
            onDone={() => {
              setCodes(null);
              heading.current?.focus();
            }}
          />
        ) : data?.totp ? (
          <>
            <p className="flex flex-wrap items-center gap-2 text-sm">
              <Badge className="border-emerald-200 bg-emerald-50 text-emerald-800">
                <ShieldCheckIcon className="mr-1 size-3.5" aria-hidden /> On
              </Badge>
              <span>
                {data.validUntil
                  ? `Confirmed on this device until ${formatDateTime(data.validUntil)}.`
                  : "Not confirmed on this device yet: you will be asked for a code when you need it."}
              </span>
            </p>
            <p className="text-sm text-muted-foreground">{data.recoveryCodesLeft} of 10 recovery codes left.</p>
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" onClick={() => setConfirming("replace")}>
                New recovery codes
              </Button>
              <Button variant="outline" className="text-destructive" onClick={() => setConfirming("disable")}>
                Turn off
              </Button>
            </div>
          </>
        ) : setup ? (
          <EnrolForm
            setup={setup.dto}
            password={setup.password}
            onEnabled={(recoveryCodes) => (setSetup(null), setCodes(recoveryCodes))}
          />
        ) : data ? (
          <StartWithPasswordForm onStarted={(dto, password) => setSetup({ dto, password })} />
        ) : null}
      </CardContent>
      <Dialog open={confirming !== null} onOpenChange={(open) => (open ? undefined : setConfirming(null))}>
        <DialogContent
          onCloseAutoFocus={(event) => {
            if (!swapped.current) return;
            swapped.current = false;
            event.preventDefault();
            (document.getElementById(RECOVERY_CODES_ID) ?? heading.current)?.focus();
          }}
        >
          <DialogHeader>
            <DialogTitle>{confirming === "disable" ? "Turn off the second factor" : "New recovery codes"}</DialogTitle>
            <DialogDescription>
              {confirming === "disable"
                ? "Enter your password and a code to turn it off. Approving, assigning and changing access will need it set up again."
                : "Enter your password and a code to replace your recovery codes. The old ones stop working."}
            </DialogDescription>
          </DialogHeader>
          <SecondFactorCodeForm
            passwordHint="Asked for every change to how you sign in."
            submitLabel={confirming === "disable" ? "Turn off" : "Replace codes"}
            pendingLabel="Checking..."
            onSubmit={confirmed}
            onCancel={() => setConfirming(null)}
          />
        </DialogContent>
      </Dialog>
    </Card>
  );
}

/** The password is typed again before the QR code: a session alone never sets up an app. */
function StartWithPasswordForm({ onStarted }: { onStarted: (setup: TotpSetupDto, password: string) => void }) {
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string>();
  const start = useStartTotpSetup();

  if (!asking) {
    return (
      <div>
        <Button onClick={() => setAsking(true)}>Set up authenticator app</Button>
      </div>
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!password) {
      setError(PASSWORD_MISSING);
      return;
    }
    start.mutate(password, {
      onSuccess: (setup) => onStarted(setup, password),
      onError: (failure) =>
        setError(
          failure instanceof ApiError ? (failure.fieldErrors.password ?? failure.message) : errorMessage(failure),
        ),
    });
  }

  return (
    <form className="grid max-w-sm gap-3" onSubmit={submit} noValidate>
      <ConfirmPasswordField
        id="totp-password"
        value={password}
        onChange={setPassword}
        error={error}
        hint="Confirm it's you before setting up the app."
        autoFocus
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={start.isPending}>
          {start.isPending ? "Starting..." : "Continue"}
        </Button>
        <Button type="button" variant="outline" onClick={() => setAsking(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function EnrolForm({
  setup,
  password,
  onEnabled,
}: {
  setup: TotpSetupDto;
  password: string;
  onEnabled: (codes: string[]) => void;
}) {
  const [code, setCode] = useState("");
  const [error, setError] = useState<string>();
  const enable = useEnableTotp();

  function submit(event: FormEvent) {
    event.preventDefault();
    enable.mutate(
      { code, password },
      {
        onSuccess: (result) => {
          toast.success("Second factor turned on", "Save your recovery codes now.");
          onEnabled(result.recoveryCodes);
        },
        onError: (failure) =>
          setError(
            failure instanceof ApiError
              ? (failure.fieldErrors.code ?? failure.fieldErrors.password ?? failure.message)
              : errorMessage(failure),
          ),
      },
    );
  }

  return (
    <div className="grid gap-4 sm:grid-cols-[auto_1fr] sm:items-start">
      <img
        src={setup.qrCode}
        alt="QR code to scan with your authenticator app"
        className="size-44 rounded border bg-white p-1"
      />
      <form className="grid max-w-sm gap-3" onSubmit={submit} noValidate>
        <ol className="list-decimal space-y-1 pl-5 text-sm">
          <li>Scan the QR code with your authenticator app.</li>
          <li>Enter the 6-digit code it shows.</li>
        </ol>
        <p className="text-xs text-muted-foreground">
          Can't scan? Enter this key instead:{" "}
          <code className="break-all font-mono text-slate-900" data-testid="totp-secret">
            {setup.secret}
          </code>
        </p>
        <Field id="totp-code" label="Authentication code" error={error}>
          <Input
            id="totp-code"
            value={code}
            inputMode="numeric"
            autoComplete="one-time-code"
            autoFocus
            placeholder="123456"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "totp-code-error" : undefined}
            onChange={(e) => setCode(e.target.value)}
          />
        </Field>
        <div>
          <Button type="submit" disabled={enable.isPending}>
            {enable.isPending ? "Turning on..." : "Turn on"}
          </Button>
        </div>
      </form>
    </div>
  );
}

const RECOVERY_CODES_ID = "recovery-codes";

/** Shown once: focused as it appears, so the codes are read out and the next Tab reaches "Copy codes". */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const section = useRef<HTMLElement>(null);
  useEffect(() => section.current?.focus(), []);
  return (
    <section
      ref={section}
      id={RECOVERY_CODES_ID}
      tabIndex={-1}
      className="grid gap-3 outline-none"
      aria-label="Recovery codes"
    >
      <p className="text-sm">
        Save these recovery codes somewhere safe. Each one works once if you lose your device. They will not be shown
        again.
      </p>
      <ul className="grid grid-cols-2 gap-2 rounded-md border bg-muted p-3 font-mono text-sm sm:max-w-md">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          onClick={() =>
            navigator.clipboard
              .writeText(codes.join("\n"))
              .then(() => toast.success("Copied", "Your recovery codes are on the clipboard."))
              .catch(() => toast.error("Could not copy", "Select the codes and copy them yourself."))
          }
        >
          Copy codes
        </Button>
        <Button onClick={onDone}>I have saved them</Button>
      </div>
    </section>
  );
}
