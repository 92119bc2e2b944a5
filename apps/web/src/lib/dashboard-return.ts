// "Back to Dashboard" returns to the tab the user left: the dashboard keeps its tab in the URL and remembers that
// URL for this browser tab (sessionStorage), so the way back survives a detour through milestones.
const KEY = "tranche.dashboard";

export function rememberDashboard(path: string): void {
  try {
    sessionStorage.setItem(KEY, path);
  } catch {
    // Storage can be unavailable (private modes); the plain dashboard is the fallback.
  }
}

export function dashboardReturnPath(): string {
  try {
    const path = sessionStorage.getItem(KEY);
    return path?.startsWith("/dashboard") ? path : "/dashboard";
  } catch {
    return "/dashboard";
  }
}
