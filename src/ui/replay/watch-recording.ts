/**
 * A scenario's "Watch a recording": its shipped run opened in the replay, in
 * place; once it shows, the focus goes to the replay's Play, so the keyboard
 * carries on there.
 */
import { tick } from 'svelte';
import type { LazyReplayOpener } from '../state/lazy-replay-opener.svelte.ts';

/** How many frames to wait for the replay's bar (its code loads on first use) before giving up on the focus. */
const FRAMES_FOR_THE_BAR = 120;

/** Opens `run` with `replays` and puts the focus on Play once the replay's bar is drawn. */
export async function watchRecording(replays: LazyReplayOpener, run: string): Promise<void> {
  await replays.openUrl(run);
  for (let frame = 0; replays.replay && frame < FRAMES_FOR_THE_BAR; frame++) {
    await tick();
    const play = document.querySelector<HTMLElement>('.replay-bar .play');
    if (play) return play.focus();
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
}
