import { useMutation } from "@tanstack/react-query";
import { AVATAR_TYPES, fieldErrors, type ProfileDto, ROLE_LABELS, updateProfileSchema } from "@tranche/domain";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { LoadError, Skeleton } from "@/components/ui/feedback";
import { Field, Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { useSession } from "@/features/auth";
import { ApiError, api, errorMessage } from "@/lib/api-client";
import { useFieldErrors } from "@/lib/use-field-errors";
import { useProfile, useRemoveAvatar, useSetAvatar, useUpdateProfile } from "../api/profile";

/** Name, organization, picture and (verifiers) expertise of the signed-in person. */
export function ProfileForm() {
  const { data, isPending, isError, error, refetch } = useProfile();
  return (
    <Card>
      <CardHeader>
        <h2 className="text-base font-semibold leading-tight tracking-tight">Profile</h2>
        <CardDescription>How others see you in Tranche.</CardDescription>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <Skeleton className="h-40" />
        ) : isError ? (
          <LoadError title="Could not load your profile" error={error} onRetry={refetch} />
        ) : (
          <div className="grid gap-6">
            <Avatar profile={data} />
            <ProfileFields key={data.id} profile={data} />
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function Avatar({ profile }: { profile: ProfileDto }) {
  const input = useRef<HTMLInputElement>(null);
  const setAvatar = useSetAvatar();
  const removeAvatar = useRemoveAvatar();
  const initials = profile.name
    .split(/\s+/)
    .map((part) => part[0])
    .join("")
    .slice(0, 2)
    .toUpperCase();
  return (
    <div className="flex flex-wrap items-center gap-4">
      {profile.avatar ? (
        <img src={profile.avatar} alt="" className="size-16 rounded-full border object-cover" />
      ) : (
        <span
          aria-hidden="true"
          className="flex size-16 items-center justify-center rounded-full bg-blue-100 text-lg font-semibold text-blue-900"
        >
          {initials}
        </span>
      )}
      <div className="grid gap-2">
        <div className="flex flex-wrap gap-2">
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={setAvatar.isPending}
            onClick={() => input.current?.click()}
          >
            {setAvatar.isPending ? "Uploading..." : profile.avatar ? "Change picture" : "Upload picture"}
          </Button>
          {profile.avatar ? (
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={removeAvatar.isPending}
              onClick={() =>
                removeAvatar.mutate(undefined, {
                  onSuccess: () => toast.success("Picture removed"),
                  onError: (e) => toast.error("Could not remove the picture", errorMessage(e)),
                })
              }
            >
              Remove
            </Button>
          ) : null}
        </div>
        <p className="text-xs text-muted-foreground">PNG, JPEG or WebP, at most 200 KB.</p>
        <input
          ref={input}
          type="file"
          accept={AVATAR_TYPES.join(",")}
          className="sr-only"
          aria-label="Picture file"
          tabIndex={-1}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = "";
            if (!file) return;
            setAvatar.mutate(file, {
              onSuccess: () => toast.success("Picture updated"),
              onError: (e) => toast.error("Could not upload the picture", errorMessage(e)),
            });
          }}
        />
      </div>
    </div>
  );
}

function ProfileFields({ profile }: { profile: ProfileDto }) {
  const isVerifier = profile.role === "verifier";
  const [values, setValues] = useState({
    name: profile.name,
    organization: profile.organization ?? "",
    expertise: profile.expertise.join(", "),
  });
  const { formRef, errors, setErrors, show } = useFieldErrors();
  const update = useUpdateProfile();

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const parsed = updateProfileSchema.safeParse({
      name: values.name,
      organization: values.organization,
      ...(isVerifier
        ? {
            expertise: values.expertise
              .split(",")
              .map((s) => s.trim())
              .filter(Boolean),
          }
        : {}),
    });
    if (!parsed.success) {
      show(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    update.mutate(parsed.data, {
      onSuccess: () => toast.success("Profile saved"),
      onError: (error) => {
        if (error instanceof ApiError) show(error.fieldErrors);
        toast.error("Could not save your profile", errorMessage(error));
      },
    });
  }

  return (
    <form ref={formRef} className="grid max-w-md gap-4" onSubmit={submit} noValidate aria-label="Profile">
      <dl className="grid gap-1 text-sm sm:grid-cols-[6rem_1fr]">
        <dt className="text-muted-foreground">Email</dt>
        <dd className="break-all font-medium text-slate-900">
          {profile.email} <EmailStatus />
        </dd>
        <dt className="text-muted-foreground">Role</dt>
        <dd className="font-medium text-slate-900">{ROLE_LABELS[profile.role]}</dd>
      </dl>
      <Field id="profile-name" label="Full Name" error={errors.name}>
        <Input
          id="profile-name"
          autoComplete="name"
          value={values.name}
          onChange={(e) => setValues((v) => ({ ...v, name: e.target.value }))}
        />
      </Field>
      <Field id="profile-organization" label="Organization" error={errors.organization}>
        <Input
          id="profile-organization"
          autoComplete="organization"
          value={values.organization}
          onChange={(e) => setValues((v) => ({ ...v, organization: e.target.value }))}
        />
      </Field>
      {isVerifier ? (
        <Field
          id="profile-expertise"
          label="Expertise"
          error={errors.expertise ?? Object.entries(errors).find(([k]) => k.startsWith("expertise."))?.[1]}
          hint="Separate areas with commas, for example: Solar, Grid connection, Water."
        >
          <Input
            id="profile-expertise"
            value={values.expertise}
            onChange={(e) => setValues((v) => ({ ...v, expertise: e.target.value }))}
          />
        </Field>
      ) : null}
      <div>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? "Saving..." : "Save profile"}
        </Button>
      </div>
    </form>
  );
}

/** Whether the signed-in person's address is confirmed; if not, a new link on request. */
function EmailStatus() {
  const { data: user } = useSession();
  const resend = useMutation({
    mutationFn: () => api<void>("/me/email-verification", { method: "POST" }),
    onSuccess: () => toast.success("Confirmation email sent", "Open the link in it to confirm your address."),
    onError: (error) => toast.error("Could not send the confirmation email", errorMessage(error)),
  });
  if (!user || user.emailVerifiedAt) {
    return user ? <span className="font-normal text-emerald-700">(confirmed)</span> : null;
  }
  return (
    <span className="font-normal">
      <span className="text-amber-800">(not confirmed yet)</span>{" "}
      <button
        type="button"
        className="text-blue-700 underline disabled:opacity-50"
        onClick={() => resend.mutate()}
        disabled={resend.isPending || resend.isSuccess}
      >
        {resend.isSuccess ? "Link sent" : "Send the link again"}
      </button>
    </span>
  );
}
