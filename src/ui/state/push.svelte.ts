/**
 * The "Also subscribe (subscriptions/listen)" switch and the stream's state,
 * over the client's TaskSubscription (T18, C9).
 */
import type { PushStatus, TaskSubscription } from '../../client/task-subscription.ts';

export class PushControls {
  readonly #subscription: TaskSubscription;
  #status = $state.raw<PushStatus>({ state: 'off' });

  constructor(subscription: TaskSubscription) {
    this.#subscription = subscription;
    this.#status = subscription.status;
  }

  /** Called by the subscription on every change. */
  statusChanged(status: PushStatus): void {
    this.#status = status;
  }

  get status(): PushStatus {
    return this.#status;
  }

  get enabled(): boolean {
    return this.#status.state !== 'off';
  }

  set enabled(on: boolean) {
    this.#subscription.setEnabled(on);
    this.#status = this.#subscription.status;
  }

  /** Ends the stream as a broken one would end; polling carries on. */
  drop(): void {
    this.#subscription.drop('stream dropped by the learner');
  }
}
