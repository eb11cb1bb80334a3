/**
 * Durable tasks, as the page controls them (issue "Durable tasks"):
 * - which store the server keeps its tasks in, a choice kept in
 *   localStorage and handed to every worker in its `start` message;
 * - the page's own journal (IndexedDB) of followed tasks and of the wire
 *   log, read back on load so every unfinished task carries on (T12);
 * - what went wrong with storage, in words.
 * The Playground owns the worker, the client and the task list; it asks
 * this class what to start with, what to restore, and what to keep.
 */
import type { WireEntry } from '../../client/rpc-client.ts';
import {
  finishedActor,
  followFactsOf,
  resumeInputOf,
  TaskJournal,
  type FollowFacts,
} from '../../client/task-journal.ts';
import type { TaskActor, TaskFollower } from '../../client/task-follower.ts';
import {
  SERVER_DATABASE,
  TaskStoreKindSchema,
  type StartMessage,
  type TaskStoreKind,
  type WorkerEvent,
} from '../../protocol/worker-control.ts';
import { deleteDatabase, IdbPageStore, PAGE_DATABASE } from '../../store/db.ts';
import type { PageStore, StorageProblem, StoredTask } from '../../store/page-store.ts';

/** Where the server-store choice is kept: a preference, not data, so "Clear everything" leaves it. */
const CHOICE_KEY = 'mcp-tasks-playground:server-store';

/** The tool name shown for a task followed by id that this browser has never seen called. */
export const UNKNOWN_TOOL = '(by id)';

export class Durability {
  readonly #journal: TaskJournal;
  #serverStore = $state<TaskStoreKind>(readChoice());
  #serverStoreRunning = $state<TaskStoreKind | undefined>();
  #serverStoreError = $state<string | undefined>();
  #storageProblem = $state.raw<StorageProblem | undefined>();
  #clearing = $state<'no' | 'working' | 'blocked'>('no');

  constructor(store?: PageStore) {
    this.#journal = new TaskJournal(
      store ?? new IdbPageStore(PAGE_DATABASE, (problem) => this.#journal.reportProblem(problem)),
      {
        onProblem: (problem) => {
          this.#storageProblem = problem;
        },
      },
    );
  }

  /** The store the learner chose for the server's tasks. */
  get serverStore(): TaskStoreKind {
    return this.#serverStore;
  }

  /** The store the running worker reported it uses (`undefined` until it says). */
  get serverStoreRunning(): TaskStoreKind | undefined {
    return this.#serverStoreRunning;
  }

  /** Why the worker could not use the chosen store, if it could not. */
  get serverStoreError(): string | undefined {
    return this.#serverStoreError;
  }

  /** What is wrong with the page's own storage, if anything. */
  get storageProblem(): StorageProblem | undefined {
    return this.#storageProblem;
  }

  /** "Clear everything" is under way; `blocked` while another tab holds the server's database. */
  get clearing(): 'no' | 'working' | 'blocked' {
    return this.#clearing;
  }

  /** The `start` message for a worker, from the current choice. */
  get startMessage(): StartMessage {
    return this.#serverStore === 'indexeddb'
      ? { type: 'start', store: { kind: 'indexeddb', database: SERVER_DATABASE } }
      : { type: 'start', store: { kind: 'memory' } };
  }

  /** Records a new choice (kept across reloads); the caller restarts the worker with {@link startMessage}. */
  choose(kind: TaskStoreKind): void {
    this.#serverStore = kind;
    this.#serverStoreRunning = undefined;
    this.#serverStoreError = undefined;
    try {
      localStorage.setItem(CHOICE_KEY, kind);
    } catch {
      // Storage refused (a locked-down profile): the choice holds until the page closes.
    }
  }

  /** What a worker said about its store. */
  workerEvent(event: WorkerEvent): void {
    if (event.type === 'ready') {
      this.#serverStoreRunning = event.store;
      if (event.store === this.#serverStore) this.#serverStoreError = undefined;
    } else {
      this.#serverStoreError = `The server could not open IndexedDB (${event.message}), so it keeps tasks in memory: they will not survive the worker.`;
    }
  }

  /** The kept wire log, oldest first, as entries to show before anything new. */
  async restoreWire(): Promise<WireEntry[]> {
    // For the bench (scripts/bench/resume.ts): the restore starts here; `playground:tasks-resumed` marks its end.
    performance.mark('playground:restore-start');
    const kept = await this.#journal.loadWire();
    // Negative sequence numbers: this page's client counts from 1, and rows are keyed by seq.
    return kept.map((entry, i) => ({ ...entry, seq: i - kept.length }));
  }

  /**
   * Actors for every stored task, oldest followed first: a fresh actor
   * carrying on each unfinished one (T12), a finished one for each the page
   * had stopped following. Each is tracked again.
   */
  async restoreTasks(follower: TaskFollower): Promise<TaskActor[]> {
    const stored = await this.#journal.load();
    const actors = stored.map((task) => this.#restore(task, follower));
    performance.mark('playground:tasks-resumed', { detail: { count: actors.length } });
    return actors;
  }

  #restore(stored: StoredTask, follower: TaskFollower): TaskActor {
    const facts = followFactsOf(stored);
    const finished = finishedActor(stored);
    if (finished) {
      this.#journal.track(finished, facts);
      return finished;
    }
    const input = resumeInputOf(stored);
    const actor = follower.follow(input.task, input.toolName, input.resume);
    this.#journal.track(actor, facts);
    return actor;
  }

  /** Keeps a task's facts from now on: written at once, then as it changes. */
  track(actor: TaskActor, facts: FollowFacts): void {
    this.#journal.track(actor, facts);
  }

  /** What this browser knows about a task another tab may have started, for a task followed by id. */
  async knownFacts(taskId: string, identity: string): Promise<FollowFacts> {
    const known = (await this.#journal.load()).find(
      (t) => t.taskId === taskId && t.identity === identity,
    );
    return known
      ? { ...followFactsOf(known), followedAt: Date.now() }
      : { toolName: UNKNOWN_TOOL, arguments: {}, identity, followedAt: Date.now() };
  }

  /** Deletes dismissed tasks. */
  forget(taskIds: readonly string[]): Promise<void> {
    return this.#journal.forget(taskIds);
  }

  recordWire(entry: WireEntry): void {
    this.#journal.recordWire(entry);
  }

  /** Writes whatever is pending (the page is going away). */
  flush(): Promise<void> {
    return this.#journal.flush();
  }

  /**
   * Empties the page's journal and wire log and deletes the server's
   * database. The caller has stopped the worker: a tab that still holds
   * the database closes its connection when asked (the worker's store
   * steps aside), until then this waits, showing `blocked`.
   */
  async clearStorage(): Promise<void> {
    this.#clearing = 'working';
    try {
      await this.#journal.clear();
      await deleteDatabase(SERVER_DATABASE, () => {
        this.#clearing = 'blocked';
      });
    } finally {
      this.#clearing = 'no';
    }
  }
}

function readChoice(): TaskStoreKind {
  try {
    const parsed = TaskStoreKindSchema.safeParse(localStorage.getItem(CHOICE_KEY));
    return parsed.success ? parsed.data : 'memory';
  } catch {
    return 'memory';
  }
}
