import { BellRingIcon } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { LoadError, Skeleton } from "@/components/ui/feedback";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useDisablePush, useEnablePush, usePushState } from "../api/push";

/** Account → Security: "Enable push on this device" (priority notifications for assignments and deadlines). */
export function SecurityPush() {
  const state = usePushState();
  const enable = useEnablePush();
  const disable = useDisablePush();
  const kind = state.data?.kind;

  return (
    <Card>
      <CardHeader>
        <h2 className="text-base font-semibold leading-tight tracking-tight">Push notifications</h2>
        <CardDescription>
          New assignments, resubmissions, verifications due soon and overdue reach this device even when Tranche is
          closed; a tap opens the assignment in the field view. Each device is turned on separately.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {state.isPending ? <Skeleton className="h-10" /> : null}
        {state.isError ? (
          <LoadError
            title="Could not read this device's push setting"
            error={state.error}
            onRetry={() => state.refetch()}
          />
        ) : null}
        {kind ? (
          <p className="flex flex-wrap items-center gap-2 text-sm">
            {kind === "on" ? (
              <Badge className="border-emerald-200 bg-emerald-50 text-emerald-800">
                <BellRingIcon className="mr-1 size-3.5" aria-hidden /> On for this device
              </Badge>
            ) : (
              <Badge className="border-slate-200 bg-slate-50 text-slate-700">Off for this device</Badge>
            )}
            <span className="text-muted-foreground">
              {kind === "unsupported"
                ? "This browser cannot receive push from Tranche here. Install Tranche on your phone (Add to Home Screen) and turn it on there."
                : kind === "blocked"
                  ? "Notifications are blocked for Tranche in this browser's settings. Allow them there, then come back."
                  : null}
            </span>
          </p>
        ) : null}
        {kind === "on" ? (
          <div>
            <Button
              variant="outline"
              disabled={disable.isPending}
              onClick={() =>
                disable.mutate(undefined, {
                  onSuccess: () => toast.success("Push turned off", "This device will no longer be notified."),
                  onError: (error) => toast.error("Could not turn push off", errorMessage(error)),
                })
              }
            >
              {disable.isPending ? "Turning off..." : "Turn off push on this device"}
            </Button>
          </div>
        ) : kind === "off" ? (
          <div>
            <Button
              disabled={enable.isPending}
              onClick={() =>
                enable.mutate(undefined, {
                  onSuccess: () => toast.success("Push turned on", "This device will be notified of priority work."),
                  onError: (error) => toast.error("Could not turn push on", errorMessage(error)),
                })
              }
            >
              {enable.isPending ? "Turning on..." : "Enable push on this device"}
            </Button>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
