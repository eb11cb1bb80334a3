/**
 * What the property tests' invariants are checked against: everything seen
 * at the boundary between the page and the server, and every atomic write
 * of the server's task store (through {@link ObservedStore}).
 */
import { isTerminal } from '../../../src/protocol/task.ts';
import type { TaskRecord, TaskStore, TaskUpdate } from '../../../src/server/task-store.ts';

/** What the invariants are checked against: everything seen at the boundary and in the stores. */
export class Ledger {
  readonly violations: string[] = [];
  /** Everything that happened, for the report when a check fails. */
  activity = 0;
  /** Per task: the first terminal record, so any later change shows (T9). */
  readonly #terminal = new Map<string, string>();
  /** Per task: input keys whose answer the store accepted, and those a job took (T15). */
  readonly #accepted = new Map<string, Set<string>>();
  readonly #taken = new Map<string, Set<string>>();
  /** CreateTaskResults the server sent, each checked with a tasks/get made the moment it left (T8). */
  readonly handles: { taskId: string; gettable: Promise<boolean> }[] = [];
  /** Per server link: request ids delivered to the server, and the responses it sent back. */
  readonly serverLinks: {
    delivered: (string | number)[];
    answered: (string | number)[];
    killed: boolean;
  }[] = [];
  /** Answers (taskId/key) that reached the server, and how many arrived again after the first (T15's repeats). */
  readonly answersDelivered = new Set<string>();
  repeatedAnswers = 0;
  /** taskIds a page followed. */
  readonly followed = new Set<string>();
  /** Input keys (taskId + key) the simulated user answered, and keys shown again after that. */
  readonly answered = new Set<string>();

  /** Requests delivered to a live server and not answered yet. */
  get inFlight(): number {
    let open = 0;
    for (const link of this.serverLinks)
      if (!link.killed) open += link.delivered.length - link.answered.length;
    return open;
  }

  violation(message: string): void {
    this.violations.push(message);
  }

  /** Sees one atomic store change. */
  storeChange(before: TaskRecord, after: TaskRecord): void {
    this.activity++;
    const id = before.taskId;
    const end = this.#terminal.get(id);
    const outcome = isTerminal(after.status)
      ? JSON.stringify({ status: after.status, result: after.result, error: after.error })
      : undefined;
    if (end !== undefined && outcome !== end)
      this.violation(`T9: task ${id} left its terminal state ${end} for ${after.status}`);
    if (end === undefined && outcome !== undefined) this.#terminal.set(id, outcome);
    this.#once(this.#accepted, id, before.inputResponses, after.inputResponses, 'accepted');
    this.#once(
      this.#taken,
      id,
      before.takenResponses ?? {},
      after.takenResponses ?? {},
      'taken by the job',
    );
    if (new Set(after.issuedInputKeys).size !== after.issuedInputKeys.length)
      this.violation(
        `T14: task ${id} issued an input key twice: ${after.issuedInputKeys.join(', ')}`,
      );
  }

  storeCreate(record: TaskRecord): void {
    this.activity++;
    if (isTerminal(record.status))
      this.#terminal.set(
        record.taskId,
        JSON.stringify({ status: record.status, result: record.result, error: record.error }),
      );
  }

  #once(
    seen: Map<string, Set<string>>,
    taskId: string,
    before: Record<string, unknown>,
    after: Record<string, unknown>,
    what: string,
  ): void {
    const keys = seen.get(taskId) ?? new Set<string>();
    seen.set(taskId, keys);
    for (const key of Object.keys(after)) {
      if (Object.hasOwn(before, key)) continue;
      if (keys.has(key))
        this.violation(`T15: the answer to ${key} of task ${taskId} was ${what} twice`);
      keys.add(key);
    }
  }
}

/** A store that reports every change it applies to the ledger. */
export class ObservedStore implements TaskStore {
  constructor(
    readonly inner: TaskStore,
    readonly ledger: Ledger,
  ) {}
  async create(record: TaskRecord): Promise<void> {
    await this.inner.create(record);
    this.ledger.storeCreate(record);
  }
  get(taskId: string) {
    return this.inner.get(taskId);
  }
  update(taskId: string, update: TaskUpdate) {
    return this.inner.update(taskId, (record) => {
      const next = update(record);
      if (next !== record) this.ledger.storeChange(structuredClone(record), structuredClone(next));
      return next;
    });
  }
  updateMany(taskIds: readonly string[], update: TaskUpdate) {
    return this.inner.updateMany(taskIds, (record) => {
      const next = update(record);
      if (next !== record) this.ledger.storeChange(structuredClone(record), structuredClone(next));
      return next;
    });
  }
  delete(taskId: string) {
    this.ledger.activity++;
    return this.inner.delete(taskId);
  }
  all() {
    return this.inner.all();
  }
  unfinished() {
    return this.inner.unfinished();
  }
  subscribe(listener: (record: TaskRecord) => void) {
    return this.inner.subscribe(listener);
  }
}
