import { formatDistanceToNow } from "date-fns";
import { useRef } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { LoadError, Skeleton } from "@/components/ui/feedback";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useSessions, useSignOutOtherSessions, useSignOutSession } from "../api/sessions";

/** Account → Security: where this account is signed in, with sign-out for one or all other sessions. */
export function SecuritySessions() {
  const sessions = useSessions();
  const signOutOne = useSignOutSession();
  const signOutOthers = useSignOutOtherSessions();
  const others = (sessions.data ?? []).filter((s) => !s.current);
  // A signed-out row leaves with its button, and "Sign out all other sessions" is then disabled: focus goes to the
  // card's heading rather than to the page's start.
  const heading = useRef<HTMLHeadingElement>(null);

  return (
    <Card>
      <CardHeader>
        <h2 ref={heading} tabIndex={-1} className="text-base font-semibold leading-tight tracking-tight outline-none">
          Active sessions
        </h2>
        <CardDescription>Where your account is signed in. Sign out any you do not recognise.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {sessions.isPending ? <Skeleton className="h-24" /> : null}
        {sessions.isError ? (
          <LoadError title="Could not load your sessions" error={sessions.error} onRetry={() => sessions.refetch()} />
        ) : null}
        {sessions.data ? (
          <ul className="divide-y rounded-md border" aria-label="Sessions">
            {sessions.data.map((s) => (
              <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                    {s.device}
                    {s.current ? <Badge className="border-blue-200 bg-blue-50 text-blue-800">This device</Badge> : null}
                  </p>
                  <p className="text-sm text-muted-foreground">
                    {s.ip ?? "Unknown address"} · last seen{" "}
                    {formatDistanceToNow(new Date(s.lastSeenAt), { addSuffix: true })} · signed in{" "}
                    {formatDistanceToNow(new Date(s.createdAt), { addSuffix: true })}
                  </p>
                </div>
                {s.current ? null : (
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={`Sign out ${s.device} (${s.ip ?? "unknown address"})`}
                    disabled={signOutOne.isPending}
                    onClick={() =>
                      signOutOne.mutate(s.id, {
                        onSuccess: () => {
                          heading.current?.focus();
                          toast.success("Session signed out", `${s.device} is signed out.`);
                        },
                        onError: (error) => toast.error("Could not sign out the session", errorMessage(error)),
                      })
                    }
                  >
                    Sign out
                  </Button>
                )}
              </li>
            ))}
          </ul>
        ) : null}
        {sessions.data ? (
          <div>
            <Button
              variant="outline"
              disabled={others.length === 0 || signOutOthers.isPending}
              onClick={() =>
                signOutOthers.mutate(undefined, {
                  onSuccess: ({ signedOut }) => {
                    heading.current?.focus();
                    toast.success(
                      "Other sessions signed out",
                      `${signedOut} ${signedOut === 1 ? "session was" : "sessions were"} signed out.`,
                    );
                  },
                  onError: (error) => toast.error("Could not sign out other sessions", errorMessage(error)),
                })
              }
            >
              {signOutOthers.isPending ? "Signing out..." : "Sign out all other sessions"}
            </Button>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
