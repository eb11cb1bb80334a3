/**
 * `LoadingNote`, where a part of the page waits for its code: a fast load
 * flashes nothing (the note stays empty for its first 400 ms), a slow one is
 * said, in a live region that was there from the start (so it is announced).
 */
import { flushSync, mount, unmount } from 'svelte';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import LoadingNote from '../../../src/ui/components/LoadingNote.svelte';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

it('loading: the note is an empty live region until the wait outlasts 400 ms, then it says what loads', () => {
  const target = document.createElement('div');
  document.body.append(target);
  const note = mount(LoadingNote, { target, props: { what: 'the task cards' } });
  flushSync();
  const status = target.querySelector('[role="status"]');
  expect(status?.textContent).toBe('');

  vi.advanceTimersByTime(399);
  flushSync();
  expect(status?.textContent).toBe('');

  vi.advanceTimersByTime(1);
  flushSync();
  // The same element: a screen reader hears the words in the region it already knew.
  expect(target.querySelector('[role="status"]')).toBe(status);
  expect(status?.textContent).toBe('Loading the task cards…');
  unmount(note);
});

it('loading: a part that arrives within the moment takes the note away before it said anything', () => {
  const target = document.createElement('div');
  document.body.append(target);
  const note = mount(LoadingNote, { target, props: { what: 'the results' } });
  flushSync();
  vi.advanceTimersByTime(200);
  unmount(note);
  // Its timer went with it: nothing is said later into a note that is gone.
  expect(vi.getTimerCount()).toBe(0);
  expect(target.textContent).toBe('');
});
