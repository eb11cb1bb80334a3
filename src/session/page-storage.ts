/**
 * What the page keeps: its journal of followed tasks and of the wire log
 * (IndexedDB), the learner's choice of server store, and what went wrong
 * with storage. "Clear everything" empties both stores.
 */
import { TaskJournal } from '../client/task-journal.ts';
import { SERVER_DATABASE } from '../protocol/worker-control.ts';
import { deleteDatabase, IdbPageStore, PAGE_DATABASE } from '../store/db.ts';
import type { PageStore, StorageProblem } from '../store/page-store.ts';
import { browserPreferences, ServerStoreChoice, type Preferences } from './server-store.ts';
import type { StorageStatus } from './session-events.ts';

export interface PageStorageOptions {
  /** The page's journal store: IndexedDB by default. */
  pageStore?: PageStore;
  /** Where the server-store choice is kept; localStorage by default. */
  preferences?: Preferences;
  /** How long wire messages gather before the journal writes them. */
  wireBatchMs?: number;
}

/** The server whose journal this is: each server has its own journal database (`ServerEndpoint.journalName`). */
interface JournalOwner {
  endpoint?: { readonly journalName?: string };
}

export class PageStorage {
  readonly journal: TaskJournal;
  readonly serverStore: ServerStoreChoice;
  readonly #changed: () => void;
  #problem: StorageProblem | undefined;
  #clearing: StorageStatus['clearing'] = 'no';

  /** `changed` is told after every change of {@link status}. */
  constructor(options: PageStorageOptions & JournalOwner, changed: () => void) {
    this.#changed = changed;
    this.serverStore = new ServerStoreChoice(
      'preferences' in options ? options.preferences : browserPreferences(),
    );
    this.journal = new TaskJournal(
      options.pageStore ??
        new IdbPageStore(options.endpoint?.journalName ?? PAGE_DATABASE, (problem) =>
          this.journal.reportProblem(problem),
        ),
      {
        onProblem: (problem) => {
          this.#problem = problem;
          this.#changed();
        },
        ...(options.wireBatchMs !== undefined ? { wireBatchMs: options.wireBatchMs } : {}),
      },
    );
  }

  get status(): StorageStatus {
    return {
      serverStore: this.serverStore.status,
      problem: this.#problem,
      clearing: this.#clearing,
    };
  }

  /**
   * Empties the page's journal and wire log and deletes the server's
   * database. The caller has stopped the server: a tab that still holds the
   * database closes its connection when asked; until then this waits,
   * showing `blocked`.
   */
  async clear(): Promise<void> {
    this.#setClearing('working');
    try {
      await this.journal.clear();
      await deleteDatabase(SERVER_DATABASE, () => this.#setClearing('blocked'));
    } finally {
      this.#setClearing('no');
    }
  }

  #setClearing(clearing: StorageStatus['clearing']): void {
    this.#clearing = clearing;
    this.#changed();
  }
}
