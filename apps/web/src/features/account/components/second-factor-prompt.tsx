import { SECOND_FACTOR_VALID_HOURS } from "@tranche/domain";
import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { setSecondFactorHandler } from "@/lib/api-client";
import { useSecondFactorStatus, useVerifySecondFactor } from "../api/second-factor";
import { SecondFactorCodeForm } from "./second-factor-code-form";

interface Pending {
  enrolled: boolean;
  promise: Promise<boolean>;
  resolve: (passed: boolean) => void;
}

/**
 * Mounted once for signed-in pages: when an action answers `mfa_required`, asks for the code (or, without an
 * authenticator app yet, leads to setting one up) and lets the API client send the action again.
 */
export function SecondFactorPrompt() {
  const [pending, setPending] = useState<Pending | null>(null);
  const [recovery, setRecovery] = useState(false);
  const current = useRef<Pending | null>(null);
  const verify = useVerifySecondFactor();
  const status = useSecondFactorStatus({ enabled: pending !== null });
  const passkeyOnly = status.data?.totp === false && status.data.passkeys > 0;
  const navigate = useNavigate();

  useEffect(() => {
    setSecondFactorHandler(({ enrolled }) => {
      // Several actions refused at once share one dialog.
      if (current.current) return current.current.promise;
      let resolve: (passed: boolean) => void = () => {};
      const promise = new Promise<boolean>((r) => {
        resolve = r;
      });
      current.current = { enrolled, promise, resolve };
      setPending(current.current);
      return promise;
    });
    return () => setSecondFactorHandler(null);
  }, []);

  function finish(passed: boolean) {
    current.current?.resolve(passed);
    current.current = null;
    setPending(null);
    setRecovery(false);
  }

  return (
    <Dialog open={pending !== null} onOpenChange={(open) => (open ? undefined : finish(false))}>
      <DialogContent>
        {pending?.enrolled === false ? (
          <>
            <DialogHeader>
              <DialogTitle>Set up a second factor</DialogTitle>
              <DialogDescription>
                Your role moves money and changes access, so this action needs a passkey or a code from an authenticator
                app as well as your password. Setting one up takes a minute.
              </DialogDescription>
            </DialogHeader>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => finish(false)}>
                Cancel
              </Button>
              <Button
                type="button"
                onClick={() => {
                  finish(false);
                  navigate("/account#security");
                }}
              >
                Set up now
              </Button>
            </DialogFooter>
          </>
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>Confirm it's you</DialogTitle>
              <DialogDescription>
                {recovery
                  ? "Enter one of your recovery codes to continue; each code works once."
                  : passkeyOnly
                    ? "Use your passkey to continue."
                    : "Enter the code from your authenticator app to continue."}{" "}
                You will not be asked again on this device for {SECOND_FACTOR_VALID_HOURS} hours.
              </DialogDescription>
            </DialogHeader>
            <SecondFactorCodeForm
              submitLabel="Verify"
              pendingLabel="Verifying..."
              onSubmit={async (input) => {
                await verify.mutateAsync(input);
                finish(true);
              }}
              onCancel={() => finish(false)}
              onModeChange={setRecovery}
            />
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
