/**
 * A replay just opened by the learner (a run file picked or dropped, a
 * scenario's recording) takes the focus on its Play, so the next Space or
 * Enter plays it. Left alone, the focus stays where the opening began: on
 * the Run menu's button (the menu gives it back when Open a run… is chosen),
 * where Space opens the menu again. A run named by the address on load is
 * not focused: the page's first Tab stop stays its skip link.
 */
import { tick } from 'svelte';
import type { LazyReplayOpener } from '../state/lazy-replay-opener.svelte.ts';

/** How many frames to wait for the replay's bar (its code loads on first use) before giving up on the focus. */
const FRAMES_FOR_THE_BAR = 120;

/** Once `opening` is done, puts the focus on the replay's Play as soon as its bar is drawn (none if it failed). */
export async function focusPlayOnceOpen(
  replays: LazyReplayOpener,
  opening: Promise<void>,
): Promise<void> {
  await opening;
  // A run that could not be opened leaves the focus alone (an older replay may still show).
  if (replays.opening.kind === 'failed') return;
  for (let frame = 0; replays.replay && frame < FRAMES_FOR_THE_BAR; frame++) {
    await tick();
    const play = document.querySelector<HTMLElement>('.replay-bar .play');
    if (play) return play.focus();
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
}
