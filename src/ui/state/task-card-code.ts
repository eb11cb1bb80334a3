/**
 * The task card's code (`TaskCard.svelte` and what only it uses), out of the first screen's
 * bundle: the first screen has no task. The task list asks for it with its first task, the page
 * fetches it once idle after start (so the first Call finds it there), and a Call's reveal waits
 * for it before looking for the card.
 */
import { onFirstUse } from './on-first-use.ts';

export const loadTaskCard = onFirstUse(() => import('../components/TaskCard.svelte'));
