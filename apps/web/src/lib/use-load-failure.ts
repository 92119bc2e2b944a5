import { useEffect, useRef } from "react";
import { useNavigate } from "react-router";
import { toast } from "@/components/ui/toaster";
import { ApiError, errorMessage } from "./api-client";

/**
 * Detail-page failures: a 404 toasts the not-found texts and sends the user to /dashboard;
 * any other error toasts the load-failure title with the server's message (or the fallback).
 */
export function useLoadFailure(
  error: unknown,
  texts: { notFound: [title: string, text: string]; failed: [title: string, fallback: string] },
) {
  const navigate = useNavigate();
  const shown = useRef<unknown>(null);
  useEffect(() => {
    if (!error || shown.current === error) return;
    shown.current = error;
    if (error instanceof ApiError && error.status === 404) {
      toast.error(...texts.notFound);
      navigate("/dashboard", { replace: true });
    } else {
      toast.error(texts.failed[0], errorMessage(error, texts.failed[1]));
    }
  }, [error, navigate, texts]);
}
