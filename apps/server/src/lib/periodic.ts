// A task a process runs every few seconds or minutes (the audit checkpoint, the overdue sweep, the email digests).
// One run at a time: a tick while one is under way does nothing and resolves `idle`. stop() clears the timer and
// waits for the run under way, so a stopping server never runs one on a database it has already closed. A failed
// run is logged and resolves `idle`; the next tick tries again.
import type { Logger } from "./logger";

export interface PeriodicTask<T> {
  /** Ticks every `everyMs` (and at once with `runAtStart`); the timer keeps no process alive. */
  start(): void;
  stop(): Promise<void>;
  /** One run now (tests, the CLI). */
  tick(): Promise<T>;
}

export function periodicTask<T>(options: {
  everyMs: number;
  run: () => Promise<T>;
  idle: T;
  logger: Logger;
  failure: string;
  runAtStart?: boolean;
}): PeriodicTask<T> {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<T> | undefined;
  const tick = (): Promise<T> => {
    if (running) return Promise.resolve(options.idle);
    running = options
      .run()
      .catch((error) => {
        options.logger.error({ err: error }, options.failure);
        return options.idle;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  return {
    start() {
      timer = setInterval(() => void tick(), options.everyMs);
      timer.unref();
      if (options.runAtStart) void tick();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await running;
    },
    tick,
  };
}
