/**
 * The "Also subscribe (subscriptions/listen)" switch and the stream's state
 * (T18, C9): a view of the page session's push subscription.
 */
import type { PushStatus } from '../../client/task-subscription.ts';
import type { PageSession } from '../../session/page-session.ts';
import { watch } from './session-subscriber.ts';

export class PushControls {
  readonly #session: PageSession;
  readonly #watch: () => void;

  constructor(session: PageSession) {
    this.#session = session;
    this.#watch = watch(session, 'push');
  }

  get status(): PushStatus {
    this.#watch();
    return this.#session.push;
  }

  get enabled(): boolean {
    return this.status.state !== 'off';
  }

  set enabled(on: boolean) {
    this.#session.setPush(on);
  }

  /** Ends the stream as a broken one would end; polling carries on. */
  drop(): void {
    this.#session.dropPush();
  }
}
