import { get, writable } from 'svelte/store';
import { describe, expect, it } from 'vitest';
import { oncePerFrame, perFrame, type FrameClock } from '../../../src/ui/state/per-frame.ts';

/** Frames stepped by hand. */
function manualFrames(): FrameClock & { step(): void; pending(): number } {
  let next = 1;
  const waiting = new Map<number, () => void>();
  return {
    request: (callback) => (waiting.set(next, callback), next++),
    cancel: (handle) => void waiting.delete(handle),
    step() {
      const due = [...waiting.values()];
      waiting.clear();
      for (const callback of due) callback();
    },
    pending: () => waiting.size,
  };
}

describe('perFrame', () => {
  it('passes on many changes as one, with the newest value, in the next frame', () => {
    const frames = manualFrames();
    const inner = writable(0);
    const seen: number[] = [];
    const stop = perFrame(inner, frames).subscribe((value) => seen.push(value));
    for (let i = 1; i <= 50; i++) inner.set(i);
    expect(seen).toEqual([0]);
    expect(frames.pending()).toBe(1);
    frames.step();
    expect(seen).toEqual([0, 50]);
    inner.set(51);
    frames.step();
    expect(seen).toEqual([0, 50, 51]);
    stop();
  });

  it('gives a subscriber the current value at once, and a read outside any frame is never stale', () => {
    const frames = manualFrames();
    const inner = writable('a');
    const store = perFrame(inner, frames);
    inner.set('b');
    expect(get(store)).toBe('b');
    const seen: string[] = [];
    const stop = store.subscribe((value) => seen.push(value));
    expect(seen).toEqual(['b']);
    inner.set('c');
    expect(get(inner)).toBe('c');
    stop();
    expect(frames.pending()).toBe(0); // Unsubscribing cancels the frame it was waiting for.
    expect(get(store)).toBe('c');
  });
});

describe('oncePerFrame', () => {
  it('runs the update once in the next frame however often it was asked, and not after cancel', () => {
    const frames = manualFrames();
    let runs = 0;
    const redraw = oncePerFrame(() => runs++, frames);
    for (let i = 0; i < 20; i++) redraw.request();
    expect(runs).toBe(0);
    expect(frames.pending()).toBe(1);
    frames.step();
    expect(runs).toBe(1);
    redraw.request();
    frames.step();
    expect(runs).toBe(2);
    redraw.request();
    redraw.cancel();
    expect(frames.pending()).toBe(0);
    frames.step();
    expect(runs).toBe(2);
  });
});
