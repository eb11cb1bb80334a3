/**
 * A store that passes on another store's changes at most once per animation
 * frame, always with the newest value. A task actor's snapshot changes a few
 * times per poll (request sent, answer in, timer armed); with a thousand
 * tasks polled every 250 ms that is thousands of changes a second, each
 * otherwise its own Svelte update of every card reading it. The screen
 * shows one value per frame anyway, so one update per frame loses nothing.
 *
 * A read outside any effect (a script, a test, a scenario judging now)
 * subscribes afresh and gets the inner store's current value at once: only
 * what is drawn lags, by at most a frame.
 */
import { readable, type Readable } from 'svelte/store';

/** Frames, injectable so Node tests can step them by hand. */
export interface FrameClock {
  request(callback: () => void): number;
  cancel(handle: number): void;
}

/**
 * Every store's frame callback in ONE requestAnimationFrame: the browser runs
 * microtasks after each animation-frame callback, so a callback per store
 * would cost a Svelte flush per store; one callback costs one flush a frame.
 */
function sharedBrowserFrames(): FrameClock {
  const waiting = new Map<number, () => void>();
  let next = 1;
  let frame: number | undefined;
  const run = () => {
    frame = undefined;
    const due = [...waiting.values()];
    waiting.clear();
    for (const callback of due) callback();
  };
  return {
    request(callback) {
      waiting.set(next, callback);
      frame ??= requestAnimationFrame(run);
      return next++;
    },
    cancel(handle) {
      waiting.delete(handle);
    },
  };
}

const browserFrames = sharedBrowserFrames();

/** `inner`, with every change after the first value delivered in the next frame, coalesced. */
export function perFrame<T>(inner: Readable<T>, frames: FrameClock = browserFrames): Readable<T> {
  let initial!: T;
  inner.subscribe((value) => (initial = value))();
  return readable<T>(initial, (set) => {
    let latest: T;
    let frame: number | undefined;
    let started = false;
    const stop = inner.subscribe((value) => {
      latest = value;
      // The value at subscription is current: pass it on now, not a frame late.
      if (!started) return set(value);
      frame ??= frames.request(() => {
        frame = undefined;
        set(latest);
      });
    });
    started = true;
    return () => {
      stop();
      if (frame !== undefined) frames.cancel(frame);
      frame = undefined;
    };
  });
}

/**
 * `update` (a `createSubscriber` update), run at most once per animation
 * frame however often `request` is called: for facts read straight off the
 * session (a task's news changes with every message about it), so a card is
 * redrawn once a frame, not once a message. `cancel` drops a pending run.
 */
export function oncePerFrame(
  update: () => void,
  frames: FrameClock = browserFrames,
): { request(): void; cancel(): void } {
  let frame: number | undefined;
  return {
    request() {
      frame ??= frames.request(() => {
        frame = undefined;
        update();
      });
    },
    cancel() {
      if (frame !== undefined) frames.cancel(frame);
      frame = undefined;
    },
  };
}
