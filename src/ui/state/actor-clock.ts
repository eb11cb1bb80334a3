/**
 * The time on a task actor's own clock. The page gives its actors the world
 * clock (which pauses and slows), and that clock tells its time; an actor on
 * xstate's default clock does not, so the wall's time stands in.
 */
import type { TaskActor } from '../../client/task-follower.ts';

/** A reader of the actor's clock's time: world time on the page, wall time otherwise. */
export function actorNow(actor: TaskActor): () => number {
  const clock: object = actor.clock;
  if ('now' in clock && typeof clock.now === 'function') {
    const now = clock.now.bind(clock);
    return () => Number(now());
  }
  return () => Date.now();
}
