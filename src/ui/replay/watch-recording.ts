/**
 * A scenario's "Watch a recording": its shipped run opened in the replay, in
 * place; once it shows, the focus goes to the replay's Play, so the keyboard
 * carries on there.
 */
import type { LazyReplayOpener } from '../state/lazy-replay-opener.svelte.ts';
import { focusPlayOnceOpen } from './focus-play.ts';

/** Opens `run` with `replays` and puts the focus on Play once the replay's bar is drawn. */
export function watchRecording(replays: LazyReplayOpener, run: string): Promise<void> {
  return focusPlayOnceOpen(replays, replays.openUrl(run));
}
