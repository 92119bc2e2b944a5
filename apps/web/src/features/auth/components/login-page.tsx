import { ROLE_LABELS, type Role } from "@tranche/domain";
import { FingerprintIcon } from "lucide-react";
import { useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { PasswordReasons } from "@/components/password-reasons";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/input";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { toast } from "@/components/ui/toaster";
import { ApiError, errorMessage } from "@/lib/api-client";
import { focusField } from "@/lib/focus-field";
import { safeNextPath } from "@/lib/next-path";
import { passkeyErrorMessage } from "@/lib/passkey-error";
import { useAuthOptions, useDemoAccounts, useSignIn, useSignInWithPasskey, useSignUp } from "../api/session";

type Tab = "login" | "signup";

export function LoginPage() {
  // /login?tab=signup (where /signup leads) opens on the sign-up tab.
  const [params] = useSearchParams();
  const [tab, setTab] = useState<Tab>(params.get("tab") === "signup" ? "signup" : "login");
  const [signInEmail, setSignInEmail] = useState("");
  // Until the server says otherwise, sign-up is offered (its default); closed, only invitations add people.
  const signUpAllowed = useAuthOptions().data?.signUpAllowed ?? true;

  return (
    <main id="main" className="flex min-h-[calc(100vh-8rem)] items-start justify-center px-4 py-10 sm:py-16">
      <div className="w-full max-w-md">
        <h1 className="mb-6 text-center text-2xl font-semibold tracking-tight text-slate-900">Sign in to Tranche</h1>
        <Tabs value={signUpAllowed ? tab : "login"} onValueChange={(value) => setTab(value as Tab)}>
          {signUpAllowed ? (
            <TabsList className="grid w-full grid-cols-2">
              <TabsTrigger value="login">Login</TabsTrigger>
              <TabsTrigger value="signup">Sign Up</TabsTrigger>
            </TabsList>
          ) : null}
          <TabsContent value="login">
            <SignInForm email={signInEmail} onEmailChange={setSignInEmail} />
          </TabsContent>
          <TabsContent value="signup">
            <SignUpForm
              onSignedUp={(email) => {
                setSignInEmail(email);
                setTab("login");
              }}
            />
          </TabsContent>
        </Tabs>
        <DemoAccounts
          onPick={(email) => {
            setSignInEmail(email);
            setTab("login");
          }}
        />
      </div>
    </main>
  );
}

function SignInForm({ email, onEmailChange }: { email: string; onEmailChange: (email: string) => void }) {
  const [password, setPassword] = useState("");
  const signIn = useSignIn();
  const withPasskey = useSignInWithPasskey();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const signedIn = () => {
    toast.success("Successfully signed in!");
    navigate(safeNextPath(params.get("next")) ?? "/dashboard", { replace: true });
  };

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!email || !password) {
      toast.error("Error", "Please enter both email and password");
      focusField(!email ? "signin-email" : "signin-password");
      return;
    }
    try {
      await signIn.mutateAsync({ email, password });
      signedIn();
    } catch (error) {
      toast.error("Error signing in", errorMessage(error));
      // The button was disabled while signing in, which dropped the focus: back to the password, ready to retype.
      focusField("signin-password", { select: true });
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Login</CardTitle>
        <CardDescription>Enter your email and password to access your dashboard.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <Field id="signin-email" label="Email">
            <Input
              id="signin-email"
              type="email"
              autoComplete="email"
              value={email}
              onChange={(e) => onEmailChange(e.target.value)}
            />
          </Field>
          <Field id="signin-password" label="Password">
            <Input
              id="signin-password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </Field>
          <Button type="submit" disabled={signIn.isPending}>
            {signIn.isPending ? "Signing In..." : "Sign In"}
          </Button>
          <Link className="justify-self-start text-sm text-blue-700 underline" to="/forgot-password">
            Forgot password?
          </Link>
        </form>
        <div className="mt-4 grid gap-2 border-t pt-4">
          <Button
            type="button"
            variant="outline"
            disabled={withPasskey.isPending}
            onClick={() =>
              withPasskey.mutate(undefined, {
                onSuccess: signedIn,
                onError: (error) => toast.error("Error signing in", passkeyErrorMessage(error)),
              })
            }
          >
            <FingerprintIcon className="mr-2 size-4" aria-hidden />
            {withPasskey.isPending ? "Waiting for your passkey..." : "Continue with a passkey"}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function SignUpForm({ onSignedUp }: { onSignedUp: (email: string) => void }) {
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [reasons, setReasons] = useState<string[]>([]);
  const signUp = useSignUp();

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setReasons([]);
    if (!name || !email || !password) {
      toast.error("Error", "Please fill in all fields");
      focusField(!name ? "signup-name" : !email ? "signup-email" : "signup-password");
      return;
    }
    try {
      await signUp.mutateAsync({ name, email, password });
      toast.success("Registration successful! Please check your email for verification.");
      setPassword("");
      onSignedUp(email);
    } catch (error) {
      if (error instanceof ApiError && error.code === "weak_password") {
        const list = (error.details as { reasons?: string[] } | undefined)?.reasons ?? [];
        setReasons(list);
        toast.error("Error signing up", `${error.message} ${list.join(" ")}`.trim());
        focusField("signup-password", { select: true });
        return;
      }
      const fields = error instanceof ApiError ? error.fieldErrors : {};
      const field = Object.values(fields)[0];
      toast.error("Error signing up", typeof field === "string" ? field : errorMessage(error));
      focusField(fields.name ? "signup-name" : fields.password ? "signup-password" : "signup-email");
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Sign Up</CardTitle>
        <CardDescription>Create an account to define projects and milestones.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <Field id="signup-name" label="Full Name">
            <Input id="signup-name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field id="signup-email" label="Email">
            <Input
              id="signup-email"
              type="email"
              autoComplete="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </Field>
          <Field
            id="signup-password"
            label="Password"
            hint="At least 12 characters. A few unrelated words make a strong password."
          >
            <Input
              id="signup-password"
              type="password"
              autoComplete="new-password"
              value={password}
              aria-describedby={reasons.length ? "signup-password-reasons" : undefined}
              onChange={(e) => setPassword(e.target.value)}
            />
          </Field>
          <PasswordReasons id="signup-password-reasons" reasons={reasons} />
          <Button type="submit" disabled={signUp.isPending}>
            {signUp.isPending ? "Signing Up..." : "Sign Up"}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function DemoAccounts({ onPick }: { onPick: (email: string) => void }) {
  const { data } = useDemoAccounts();
  if (!data?.enabled) return null;
  return (
    <section aria-labelledby="demo-accounts" className="mt-6 rounded-lg border bg-white p-4 text-sm">
      <h2 id="demo-accounts" className="font-semibold text-slate-900">
        Demo accounts
      </h2>
      <p className="mt-1 text-muted-foreground">
        Every demo account uses the password{" "}
        <code className="rounded bg-muted px-1 py-0.5 font-mono text-slate-900">{data.password}</code>.
      </p>
      <ul className="mt-3 grid gap-2">
        {data.accounts.map((account) => (
          <li key={account.email} className="flex items-center justify-between gap-3">
            <span>
              <span className="font-medium text-slate-900">{ROLE_LABELS[account.role as Role] ?? account.role}</span>{" "}
              <span className="text-muted-foreground">{account.email}</span>
            </span>
            <Button type="button" size="sm" variant="outline" onClick={() => onPick(account.email)}>
              Use
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
