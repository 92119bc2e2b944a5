import { KeyRoundIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { CopyOnceField } from "./copy-once-field";

/** The token, once: it is stored hashed and cannot be shown again. */
export function CreatedToken({ name, token, onDone }: { name: string; token: string; onDone: () => void }) {
  return (
    <div className="grid gap-4">
      <DialogHeader>
        <DialogTitle className="flex items-center gap-2">
          <KeyRoundIcon className="size-5" aria-hidden /> Token for {name}
        </DialogTitle>
        <DialogDescription>Copy it now and store it safely. It will not be shown again.</DialogDescription>
      </DialogHeader>
      <CopyOnceField value={token} label="New API token" what="token" />
      <DialogFooter>
        <Button type="button" onClick={onDone}>
          Done
        </Button>
      </DialogFooter>
    </div>
  );
}
