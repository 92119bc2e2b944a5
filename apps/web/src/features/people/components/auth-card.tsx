import type * as React from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

/** The narrow centred card the signed-out pages (invitation, forgot and reset password) share with /login. */
export function AuthCard({
  heading,
  title,
  description,
  children,
}: {
  heading: string;
  title: string;
  description: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <main id="main" className="flex min-h-[calc(100vh-8rem)] items-start justify-center px-4 py-10 sm:py-16">
      <div className="w-full max-w-md">
        <h1 className="mb-6 text-center text-2xl font-semibold tracking-tight text-slate-900">{heading}</h1>
        <Card>
          <CardHeader>
            <CardTitle>{title}</CardTitle>
            <CardDescription>{description}</CardDescription>
          </CardHeader>
          <CardContent>{children}</CardContent>
        </Card>
      </div>
    </main>
  );
}
