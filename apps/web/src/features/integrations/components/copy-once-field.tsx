import { CheckIcon, CopyIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { cn } from "@/lib/utils";

/**
 * A secret shown once (a webhook signing secret, an API token): read-only, selected on focus, with a button that
 * copies it and says so.
 */
export function CopyOnceField({ value, label, what }: { value: string; label: string; what: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      toast.error("Could not copy", `Select the ${what} and copy it by hand.`);
    }
  };
  return (
    <div className="flex items-stretch gap-2">
      <Input
        readOnly
        aria-label={label}
        value={value}
        onFocus={(e) => e.currentTarget.select()}
        className="min-w-0 flex-1 bg-slate-50 font-mono text-xs"
      />
      <Button type="button" variant="outline" onClick={copy}>
        {copied ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />}
        <span aria-live="polite" className={cn(copied && "text-emerald-800")}>
          {copied ? "Copied" : `Copy ${what}`}
        </span>
      </Button>
    </div>
  );
}
