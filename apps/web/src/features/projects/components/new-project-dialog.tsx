import { CURRENCIES, type Currency } from "@tranche/domain";
import { PlusIcon } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { Field, Input, NativeSelect, Textarea } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { ApiError, errorMessage } from "@/lib/api-client";
import { useCreateProject } from "../api/create-project";

const EMPTY = {
  name: "",
  description: "",
  totalCapital: "",
  location: "",
  startDate: "",
  endDate: "",
  currency: "USD" as Currency,
};

/** SPEC.md §2.6 'New Project' dialog, saved by the server. */
export function NewProjectDialog() {
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useCreateProject();
  const set = (name: keyof typeof EMPTY) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [name]: e.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const totalCapital = Number(values.totalCapital);
    // SPEC.md §5: name, description, totalCapital and location are required; a capital of 0 counts as missing.
    if (!values.name.trim() || !values.description.trim() || !totalCapital || !values.location.trim()) {
      toast.error("Missing Information", "Please fill in all required fields");
      return;
    }
    setErrors({});
    try {
      await create.mutateAsync({
        name: values.name,
        description: values.description,
        totalCapital,
        location: values.location,
        startDate: values.startDate || null,
        endDate: values.endDate || null,
        currency: values.currency,
      });
      toast.success("Project Created", "Your project has been created successfully");
      setValues(EMPTY);
      setOpen(false);
    } catch (error) {
      if (error instanceof ApiError) setErrors(error.fieldErrors);
      toast.error("Error creating project", errorMessage(error));
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setErrors({});
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <PlusIcon aria-hidden /> New Project
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>New Project</DialogTitle>
          <DialogDescription>Define the project and the capital it will release in milestones.</DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <Field id="project-name" label="Project Name" error={errors.name}>
            <Input id="project-name" value={values.name} onChange={set("name")} aria-invalid={!!errors.name} />
          </Field>
          <Field id="project-description" label="Description" error={errors.description}>
            <Textarea
              id="project-description"
              value={values.description}
              onChange={set("description")}
              aria-invalid={!!errors.description}
            />
          </Field>
          <div className="grid gap-4 sm:grid-cols-[1fr_8rem]">
            <Field id="project-capital" label="Total Capital" error={errors.totalCapital}>
              <Input
                id="project-capital"
                type="number"
                inputMode="decimal"
                min={1}
                step="any"
                value={values.totalCapital}
                onChange={set("totalCapital")}
                aria-invalid={!!errors.totalCapital}
              />
            </Field>
            <Field id="project-currency" label="Currency" error={errors.currency}>
              <NativeSelect id="project-currency" value={values.currency} onChange={set("currency")}>
                {CURRENCIES.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </NativeSelect>
            </Field>
          </div>
          <Field id="project-location" label="Location" error={errors.location}>
            <Input
              id="project-location"
              value={values.location}
              onChange={set("location")}
              aria-invalid={!!errors.location}
            />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="project-start" label="Start Date" error={errors.startDate}>
              <Input id="project-start" type="date" value={values.startDate} onChange={set("startDate")} />
            </Field>
            <Field id="project-end" label="End Date" error={errors.endDate}>
              <Input
                id="project-end"
                type="date"
                min={values.startDate || undefined}
                value={values.endDate}
                onChange={set("endDate")}
                aria-invalid={!!errors.endDate}
              />
            </Field>
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? "Creating..." : "Create Project"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
