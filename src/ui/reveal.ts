/**
 * After the learner presses Call, the task card it made is drawn in the
 * task list, often below the call form and "Keeping tasks", out of view:
 * the page brings it into view, so the first thing a newcomer sees after
 * their first call is the card that walks the lifecycle.
 */
import { tick } from 'svelte';
import type { CallOutcome } from './state/tool-calls.svelte.ts';
import { loadTaskCard } from './state/later-parts.ts';

/** Frames to wait for the card: it is drawn in the frame after the session follows the task (per-frame.ts). */
const FRAMES = 30;

const nextFrame = (): Promise<void> =>
  new Promise((resolve) => requestAnimationFrame(() => resolve()));

/** The drawn card of `taskId`, if any (compared as data, so no id is ever read as a selector). */
export function taskCardOf(taskId: string): HTMLElement | undefined {
  return [...document.querySelectorAll<HTMLElement>('article[data-task-id]')].find(
    (el) => el.dataset['taskId'] === taskId,
  );
}

/**
 * Scrolls `element` into view as little as needed, at once: no motion, so
 * nothing to turn off for reduced motion, and the card stands still the
 * moment it is shown, ready for a click (a smooth scroll kept a card moving
 * under the pointer for as long as it ran).
 */
export function scrollIntoViewAtOnce(element: Element): void {
  element.scrollIntoView({ block: 'nearest', behavior: 'instant' });
}

/** The newest call whose card is to be shown: only its reveal runs. */
let newestCall = 0;

/**
 * Once `outcome` says the call became a task and its card is drawn, scrolls
 * the card into view. Only the newest call's card: a learner who pressed Call
 * again wants the latest, and a thousand calls pressed at once must not each
 * look for its card 30 frames long (each look reads the DOM and a scroll
 * forces a layout, which starved the page: 300 calls took 19 s to start).
 */
export async function revealCallOutcome(outcome: Promise<CallOutcome>): Promise<void> {
  const call = ++newestCall;
  const ended = await outcome;
  if (ended.kind !== 'task' || call !== newestCall) return;
  // The card's code may still be on its way (later-parts.ts): its frames count from its arrival.
  await loadTaskCard().catch(() => undefined);
  await tick();
  for (let frame = 0; frame < FRAMES && call === newestCall; frame++) {
    const card = taskCardOf(ended.taskId);
    if (card) {
      scrollIntoViewAtOnce(card);
      return;
    }
    await nextFrame();
  }
}
