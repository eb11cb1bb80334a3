/**
 * Durable tasks, as the "Keeping tasks" panel shows them: which store the
 * server keeps its tasks in, what went wrong with storage, and "Clear
 * everything" under way. A thin view of the page session's storage
 * (src/session/page-storage.ts): the session owns the journal and restores
 * what it kept on load.
 */
import type { TaskStoreKind } from '../../protocol/worker-control.ts';
import type { PageSession } from '../../session/page-session.ts';
import type { StorageProblem } from '../../store/page-store.ts';
import { watch } from './session-subscriber.ts';

export { UNKNOWN_TOOL } from '../../session/followed-tasks.ts';

export class Durability {
  readonly #session: PageSession;
  readonly #watch: () => void;

  constructor(session: PageSession) {
    this.#session = session;
    this.#watch = watch(session, 'storage');
  }

  /** The store the learner chose for the server's tasks. */
  get serverStore(): TaskStoreKind {
    this.#watch();
    return this.#session.storage.serverStore.chosen;
  }

  /** The store the running worker reported it uses (`undefined` until it says). */
  get serverStoreRunning(): TaskStoreKind | undefined {
    this.#watch();
    return this.#session.storage.serverStore.running;
  }

  /** Why the worker could not use the chosen store, if it could not. */
  get serverStoreError(): string | undefined {
    this.#watch();
    return this.#session.storage.serverStore.error;
  }

  /** What is wrong with the page's own storage, if anything. */
  get storageProblem(): StorageProblem | undefined {
    this.#watch();
    return this.#session.storage.problem;
  }

  /** "Clear everything" is under way; `blocked` while another tab holds the server's database. */
  get clearing(): 'no' | 'working' | 'blocked' {
    this.#watch();
    return this.#session.storage.clearing;
  }
}
