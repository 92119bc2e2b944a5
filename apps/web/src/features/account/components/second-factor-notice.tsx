import { Link } from "react-router";
import { useSecondFactorStatus } from "../api/second-factor";

/**
 * Beside an action that asks for the second factor (ADR 014): when the person's role needs one and they have none
 * set up yet, says so before they fill in the form, with where to set one up.
 */
export function SecondFactorNotice({ action }: { action: string }) {
  const status = useSecondFactorStatus();
  if (!status.data?.required || status.data.enrolled) return null;
  return (
    <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
      {action} asks for a code from an authenticator app or a passkey, and you have none set up yet.{" "}
      <Link to="/account#security" className="font-medium underline underline-offset-4">
        Set one up
      </Link>{" "}
      first.
    </p>
  );
}
