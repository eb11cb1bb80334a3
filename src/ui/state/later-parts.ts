/**
 * Parts of the page the first screen does not draw, kept out of its bundle: the task card (the
 * first screen has no task), the list of calls under Results (nor any call) and the task detail.
 * Each list asks for its part with its first item; the page fetches those two once idle after
 * start (`fetchLaterParts`), so the first Call finds them there; a Call's reveal waits for the
 * card's code before looking. The detail loads when the first one opens.
 */
import { onFirstUse } from './on-first-use.ts';

export const loadTaskCard = onFirstUse(() => import('../components/TaskCard.svelte'));
export const loadCallList = onFirstUse(() => import('../components/CallList.svelte'));
/** The task detail (statechart, history, timeline): loaded when the first one opens, not fetched ahead. */
export const loadTaskDetail = onFirstUse(() => import('../components/TaskDetail.svelte'));

/** Both parts, fetched ahead of need; a failure is said where the part is drawn, when it is. */
export function fetchLaterParts(): void {
  for (const load of [loadTaskCard, loadCallList]) void load().catch(() => undefined);
}
