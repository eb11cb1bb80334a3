/**
 * Parts of the page the first screen does not draw, kept out of its bundle: the task card (the
 * first screen has no task), the list of calls under Results (nor any call) and the task detail.
 * Each list asks for its part with its first item; the page fetches those two once idle after
 * start (`fetchLaterParts`), so the first Call finds them there; a Call's reveal waits for the
 * card's code before looking. The detail loads when the first one opens, and so do the parts
 * most visits never open (a scenario, a learning view, a replay, the cluster's controls).
 * Each is drawn through `LazyPart`, which says a failure in plain words and tries again.
 */
import { onFirstUse } from './on-first-use.ts';

export const loadTaskCard = onFirstUse(() => import('../components/TaskCard.svelte'));
export const loadCallList = onFirstUse(() => import('../components/CallList.svelte'));
/** The task detail (statechart, history, timeline): loaded when the first one opens, not fetched ahead. */
export const loadTaskDetail = onFirstUse(() => import('../components/TaskDetail.svelte'));
/** A scenario's panel (its steps and verdict): loaded when the first scenario opens. */
export const loadScenarioPanel = onFirstUse(() => import('../components/ScenarioPanel.svelte'));
/** The learning views (interview deck, myths, what changed), over the playground's columns. */
export const loadLearnView = onFirstUse(() => import('../learn/LearnView.svelte'));
/** The rules' digest, the largest text of the learning views: loaded with its own view. */
export const loadSpecDigest = onFirstUse(() => import('../learn/SpecDigestView.svelte'));
/** A replay's bar and view, together: one is no use without the other. */
export const loadReplayScreen = onFirstUse(() =>
  Promise.all([import('../replay/ReplayBar.svelte'), import('../replay/ReplayView.svelte')]),
);
/** The cluster's controls (nodes, routing, shared store): loaded when the panel is first unfolded. */
export const loadClusterBody = onFirstUse(() => import('../components/ClusterBody.svelte'));

/** Both parts, fetched ahead of need; a failure is said where the part is drawn, when it is. */
export function fetchLaterParts(): void {
  for (const load of [loadTaskCard, loadCallList]) void load().catch(() => undefined);
}
