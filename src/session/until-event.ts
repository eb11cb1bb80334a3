/**
 * Waiting on a condition instead of sleeping: resolves as soon as `ready()`
 * holds, checked now and after every `type` event, or settles when the
 * timeout runs out (rejecting with `timeoutError`, or resolving without it).
 */
import type { Scheduler } from '../net/scheduler.ts';
import type { Emitter } from './emitter.ts';

export function untilEvent<Events extends object, K extends keyof Events>(
  events: Emitter<Events>,
  type: K,
  ready: () => boolean,
  options: { scheduler: Scheduler; timeoutMs: number; timeoutError?: () => Error },
): Promise<void> {
  if (ready()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = (error?: Error): void => {
      unsubscribe();
      options.scheduler.clearTimeout(timer);
      if (error) reject(error);
      else resolve();
    };
    const unsubscribe = events.on(type, () => {
      if (ready()) done();
    });
    const timer = options.scheduler.setTimeout(
      () => done(options.timeoutError?.()),
      options.timeoutMs,
    );
  });
}
