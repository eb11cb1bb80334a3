/**
 * Reading the page session reactively: `watch(session, 'server')` returns a
 * function that, called inside an effect or a template, makes it re-run on
 * every such event (svelte/reactivity's createSubscriber: the listener is
 * added with the first reader and removed with the last). Getters then read
 * the session itself, so nothing is mirrored.
 */
import { createSubscriber } from 'svelte/reactivity';
import type { PageSession } from '../../session/page-session.ts';
import type { SessionEvents } from '../../session/session-events.ts';

export function watch(session: PageSession, ...types: (keyof SessionEvents)[]): () => void {
  return createSubscriber((update) => {
    const stops = types.map((type) => session.on(type, () => update()));
    return () => {
      for (const stop of stops) stop();
    };
  });
}
