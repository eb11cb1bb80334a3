/**
 * After the learner presses Call, the task card it made is drawn in the
 * task list, often below the call form and "Keeping tasks", out of view:
 * the page brings it into view, so the first thing a newcomer sees after
 * their first call is the card that walks the lifecycle. If that scroll
 * takes the pressed button out of view, the focus goes to the card.
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

/**
 * Whether `element` is drawn whole where the learner can see it: inside the window, and
 * not scrolled out of its column (what is drawn at its corners is itself). <body> counts
 * as in sight: there is no focus to lose.
 */
function wholeInSight(element: HTMLElement): boolean {
  if (element === document.body) return true;
  const box = element.getBoundingClientRect();
  if (box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth)
    return false;
  const drawnAt = (x: number, y: number): boolean =>
    element.contains(document.elementFromPoint(x, y));
  return drawnAt(box.left + 2, box.top + 2) && drawnAt(box.right - 2, box.bottom - 2);
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
      const focused = document.activeElement;
      scrollIntoViewAtOnce(card);
      // On a phone the control pressed ("Call slow_compute now", the form's Call) is a screen
      // above the card: left there, the focus sits on a button no one can see, and the next
      // Tab starts from it. The focus follows to what the call made, the card now in view.
      if (focused instanceof HTMLElement && !card.contains(focused) && !wholeInSight(focused))
        card.focus({ preventScroll: true });
      return;
    }
    await nextFrame();
  }
}
