import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { CopyOnceField } from "./copy-once-field";

/** A new endpoint's signing secret, or a rotated one: shown this once. */
export function SecretDialog({
  url,
  secret,
  rotated,
  onClose,
}: {
  url: string;
  secret: string;
  rotated: boolean;
  onClose: () => void;
}) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{rotated ? "New signing secret" : "Endpoint created"}</DialogTitle>
          <DialogDescription>
            Copy the signing secret for <span className="break-all font-mono">{url}</span> now: it is shown only once.
            {rotated ? " The previous secret keeps signing beside it for 24 hours." : ""}
          </DialogDescription>
        </DialogHeader>
        <CopyOnceField value={secret} label="Signing secret" what="secret" />
        <p className="text-sm text-muted-foreground">Receivers verify each webhook with it (Standard Webhooks).</p>
        <DialogFooter>
          <Button onClick={onClose}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
