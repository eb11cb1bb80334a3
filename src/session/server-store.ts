/**
 * Which store the server keeps its tasks in: the learner's choice (a
 * preference kept in localStorage, so "Clear everything" leaves it), the
 * store the running server reported, and why it could not use the chosen
 * one. Every server is started with {@link ServerStoreChoice.startMessage}.
 */
import {
  SERVER_DATABASE,
  TaskStoreKindSchema,
  type StartMessage,
  type TaskStoreKind,
  type WorkerEvent,
} from '../protocol/worker-control.ts';

/** Where the choice is kept. */
const CHOICE_KEY = 'mcp-tasks-playground:server-store';

/** What keeps a preference: localStorage in the page, nothing (or a Map) in Node. */
export interface Preferences {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** The page's localStorage, when this runtime has one that works. */
export function browserPreferences(): Preferences | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined; // A locked-down profile throws on access.
  }
}

export interface ServerStoreStatus {
  /** The store the learner chose. */
  readonly chosen: TaskStoreKind;
  /** The store the running server reported it uses (`undefined` until it says). */
  readonly running: TaskStoreKind | undefined;
  /** Why the server could not use the chosen store, if it could not. */
  readonly error: string | undefined;
}

export class ServerStoreChoice {
  readonly #preferences: Preferences | undefined;
  #status: ServerStoreStatus;

  constructor(preferences: Preferences | undefined) {
    this.#preferences = preferences;
    this.#status = { chosen: this.#read(), running: undefined, error: undefined };
  }

  get status(): ServerStoreStatus {
    return this.#status;
  }

  /** The `start` message for a server, from the current choice. */
  get startMessage(): StartMessage {
    return this.#status.chosen === 'indexeddb'
      ? { type: 'start', store: { kind: 'indexeddb', database: SERVER_DATABASE } }
      : { type: 'start', store: { kind: 'memory' } };
  }

  /** Records a new choice (kept across reloads); the caller restarts the server. */
  choose(kind: TaskStoreKind): void {
    this.#status = { chosen: kind, running: undefined, error: undefined };
    try {
      this.#preferences?.setItem(CHOICE_KEY, kind);
    } catch {
      // Storage refused: the choice holds until the page closes.
    }
  }

  /** What a server said about its store. */
  /** Takes in what the server said about its store; false for anything else (the x-ray's events). */
  heard(event: WorkerEvent): boolean {
    if (event.type !== 'ready' && event.type !== 'storage-error') return false;
    this.#status =
      event.type === 'ready'
        ? {
            ...this.#status,
            running: event.store,
            error: event.store === this.#status.chosen ? undefined : this.#status.error,
          }
        : {
            ...this.#status,
            error: `The server could not open IndexedDB (${event.message}), so it keeps tasks in memory: they will not survive the worker.`,
          };
    return true;
  }

  #read(): TaskStoreKind {
    try {
      const parsed = TaskStoreKindSchema.safeParse(this.#preferences?.getItem(CHOICE_KEY));
      return parsed.success ? parsed.data : 'memory';
    } catch {
      return 'memory';
    }
  }
}
