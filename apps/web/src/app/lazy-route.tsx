import { type ComponentType, lazy, Suspense } from "react";
import { AdoptEarlyInput } from "./adopt-early-input";

/** A lazily loaded component (see `preloadable`): the component once its module is in, else React's lazy one. */
export interface PreloadableEntry<P> {
  loaded?: ComponentType<P>;
  lazy: ComponentType<P>;
}

/**
 * A lazily loaded component with a `preload` that starts loading its module early; render it with <Preloaded>.
 * Once the module is in, it renders at once instead of suspending: React.lazy alone suspends on its first render
 * even when the module has already arrived, and a boundary that showed its fallback is revealed only after
 * React's 300 ms throttle, so nested lazy layouts cost a third of a second each.
 */
export function preloadable<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  let pending: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () => {
    pending ??= load().then(
      (module) => {
        entry.loaded = module.default;
        return module;
      },
      (error) => {
        pending = undefined; // a later render may try again
        throw error;
      },
    );
    return pending;
  };
  const entry: PreloadableEntry<P> = { lazy: lazy(preload) };
  return { entry, preload };
}

/** Renders a preloadable component with `props`. */
export function Preloaded<P extends object>({ entry, props }: { entry: PreloadableEntry<P>; props: P }) {
  // The lazy wrapper only until the module is in; it is set before the wrapper resolves, so no position that has
  // shown the module's component switches type (and remounts) later.
  const Component = entry.loaded ?? entry.lazy;
  return <Component {...props} />;
}

/**
 * A route element whose module loads on first visit, so each page is its own chunk. Navigations run in a
 * transition, so the page on screen stays until the next one is ready; the blank fallback (as tall as
 * a page, so the footer does not jump) shows only on a first load. `preload` starts loading it early. On a
 * prerendered page, what the visitor entered before this part was hydrated is taken in (AdoptEarlyInput).
 */
export function lazyRoute(load: () => Promise<{ default: ComponentType }>) {
  const { entry, preload } = preloadable(load);
  return {
    element: (
      <Suspense fallback={<div className="min-h-screen" aria-busy="true" />}>
        <Preloaded entry={entry} props={{}} />
        <AdoptEarlyInput />
      </Suspense>
    ),
    preload,
  };
}

export function lazyPage(load: () => Promise<{ default: ComponentType }>) {
  return lazyRoute(load).element;
}

/** Layout route providing the shared QueryClient to the routes nested in it. */
export const queryScopeRoute = lazyRoute(() => import("./query-scope"));
export const queryScope = queryScopeRoute.element;
