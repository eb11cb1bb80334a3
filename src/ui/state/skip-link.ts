/**
 * Where the skip link goes, and what it says, for the view shown: past the
 * header to the first thing of that view. A replay covers the playground
 * (inert beneath it), so there it goes to the replay's controls, or to the
 * task detail open over them.
 */

/** What covers the page, as far as the skip link goes. */
export interface ShownView {
  /** A learning view (Interview, Myths, What changed, Rules). */
  readonly learning: boolean;
  /** A replay is open; `detail`: a task's detail is open in it. */
  readonly replay: { readonly detail: boolean } | undefined;
  /** A live task's detail is open. */
  readonly liveDetail: boolean;
}

export interface SkipLink {
  /** The id of the element it focuses (a landing place with `tabindex="-1"`). */
  readonly targetId: string;
  readonly words: string;
}

export const SKIP_TO_PLAYGROUND: SkipLink = {
  targetId: 'playground-start',
  words: 'Skip to the playground',
};

export function skipLink(view: ShownView): SkipLink {
  if (view.learning) return { targetId: 'learn-view', words: 'Skip to the content' };
  const detail = { targetId: 'task-detail', words: 'Skip to the task detail' };
  if (view.replay)
    return view.replay.detail ? detail : { targetId: 'replay-start', words: 'Skip to the replay' };
  return view.liveDetail ? detail : SKIP_TO_PLAYGROUND;
}
