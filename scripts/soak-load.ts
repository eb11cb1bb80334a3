/**
 * The soak's load: several clients, each with its own bearer identity (T20),
 * each keeping a few short-TTL tasks going over Streamable HTTP. A task is
 * polled with `tasks/get` at the `pollIntervalMs` the server suggests (T12)
 * until it is terminal; once its TTL and the server's purge delay have
 * passed, its owner asks for it once more and expects `-32602` (T13).
 * Shared by `npm run soak` (scripts/soak.ts) and its short CI variant
 * (tests/unit/server/soak.test.ts).
 */
import { httpHeadersFor, requestMeta } from '../src/protocol/envelope.ts';
import { ErrorCode } from '../src/protocol/constants.ts';
import type { JsonRpcRequest } from '../src/protocol/jsonrpc.ts';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const CLIENT_INFO = { name: 'soak', version: '1.0.0' };
/** flash_sale_quote: a 4 s TTL on a 10 s job, so every task expires to `failed` and is later deleted. */
const TOOL = 'flash_sale_quote';
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

export interface SoakLoadOptions {
  /** The MCP endpoint. */
  url: string;
  clients: number;
  /** Tasks each client keeps going at once. */
  tasksPerClient: number;
  /** How long the server keeps an expired task before deleting it; a purge check waits this long past the TTL. */
  purgeAfterMs: number;
  /** Extra wait past TTL + purge delay before the check: the server sweeps once a second. */
  purgeGraceMs?: number;
  /** Stops creating tasks; polls in flight finish, due purge checks are made, then `run` resolves. */
  signal: AbortSignal;
}

export interface SoakLoadResult {
  created: number;
  polls: number;
  /** Tasks seen terminal, by status; an expired one is `failed` with the expiry error. */
  terminal: Record<string, number>;
  /** Terminal tasks that were `failed` by their TTL (T13). */
  expired: number;
  /** Asked for once TTL + purge delay had passed, and gone (-32602). */
  purgeConfirmed: number;
  /** Asked for once TTL + purge delay had passed, and still there. */
  notPurged: string[];
  /** Gone (-32602) while still inside its TTL: T13 forbids it. */
  goneEarly: string[];
  /** Terminal, but not yet due for a purge check when the run stopped. */
  uncheckedAtEnd: number;
  /** Any other failure: HTTP status, JSON-RPC error, malformed answer. */
  errors: string[];
}

interface Tracked {
  taskId: string;
  createdAt: number;
  ttlMs: number | null;
}

class SoakClient {
  readonly #identity: string;
  readonly #options: SoakLoadOptions;
  readonly #result: SoakLoadResult;
  readonly #purgeQueue: Tracked[] = [];
  #nextId = 1;
  #taskNumber = 0;
  #slotsDone = false;

  constructor(index: number, options: SoakLoadOptions, result: SoakLoadResult) {
    this.#identity = `soak-client-${index}`;
    this.#options = options;
    this.#result = result;
  }

  async run(): Promise<void> {
    const checks = this.#purgeChecks();
    await Promise.all(Array.from({ length: this.#options.tasksPerClient }, () => this.#slot()));
    this.#slotsDone = true;
    await checks;
  }

  /** One task after another until stopped. */
  async #slot(): Promise<void> {
    while (!this.#options.signal.aborted) {
      try {
        await this.#oneTask();
      } catch (error) {
        this.#result.errors.push(
          `${this.#identity}: ${error instanceof Error ? error.message : String(error)}`,
        );
        await sleep(1000);
      }
    }
  }

  async #oneTask(): Promise<void> {
    const created = await this.#call('tools/call', {
      name: TOOL,
      arguments: { sku: `${this.#identity}-${++this.#taskNumber}` },
    });
    if (
      !('result' in created) ||
      created.result['resultType'] !== 'task' ||
      typeof created.result['taskId'] !== 'string'
    ) {
      throw new Error(`tools/call did not return a task: ${JSON.stringify(created).slice(0, 200)}`);
    }
    this.#result.created++;
    const task: Tracked = {
      taskId: created.result['taskId'],
      createdAt: Date.parse(String(created.result['createdAt'])),
      ttlMs: typeof created.result['ttlMs'] === 'number' ? created.result['ttlMs'] : null,
    };
    let interval = pollInterval(created.result, 1000);
    for (;;) {
      await sleep(interval);
      const got = await this.#call('tasks/get', { taskId: task.taskId });
      this.#result.polls++;
      if ('error' in got) {
        const withinTtl = task.ttlMs === null || Date.now() < task.createdAt + task.ttlMs;
        if (got.error.code === ErrorCode.InvalidParams && withinTtl)
          this.#result.goneEarly.push(task.taskId);
        else
          this.#result.errors.push(
            `${this.#identity}: tasks/get ${task.taskId}: ${got.error.code} ${got.error.message}`,
          );
        return;
      }
      const status = String(got.result['status']);
      if (TERMINAL.has(status)) {
        this.#result.terminal[status] = (this.#result.terminal[status] ?? 0) + 1;
        const error = got.result['error'];
        if (
          status === 'failed' &&
          typeof error === 'object' &&
          error !== null &&
          /expired/i.test(String((error as { message?: unknown }).message))
        )
          this.#result.expired++;
        this.#purgeQueue.push(task);
        return;
      }
      interval = pollInterval(got.result, interval);
    }
  }

  /** Once a second: asks for every task whose TTL and purge delay have passed, expecting -32602. Ends after the slots, with one last pass. */
  async #purgeChecks(): Promise<void> {
    const grace = this.#options.purgeGraceMs ?? 3000;
    const dueAt = (t: Tracked): number =>
      t.ttlMs === null ? Infinity : t.createdAt + t.ttlMs + this.#options.purgeAfterMs + grace;
    for (;;) {
      const stopping = this.#slotsDone;
      const now = Date.now();
      const due = this.#purgeQueue.filter((t) => dueAt(t) <= now);
      for (const task of due) {
        this.#purgeQueue.splice(this.#purgeQueue.indexOf(task), 1);
        const got = await this.#call('tasks/get', { taskId: task.taskId });
        if ('error' in got && got.error.code === ErrorCode.InvalidParams)
          this.#result.purgeConfirmed++;
        else this.#result.notPurged.push(task.taskId);
      }
      if (stopping) break;
      await sleep(1000);
    }
    this.#result.uncheckedAtEnd += this.#purgeQueue.length;
  }

  async #call(
    method: string,
    params: Record<string, unknown>,
  ): Promise<{ result: Record<string, unknown> } | { error: { code: number; message: string } }> {
    const message: JsonRpcRequest = {
      jsonrpc: '2.0',
      id: this.#nextId++,
      method,
      params: { ...params, _meta: requestMeta(CLIENT_INFO, TASKS) },
    };
    const response = await fetch(this.#options.url, {
      method: 'POST',
      headers: { ...httpHeadersFor(message), authorization: `Bearer ${this.#identity}` },
      body: JSON.stringify(message),
    });
    const body = (await response.json()) as Record<string, unknown>;
    const error = body['error'];
    if (typeof error === 'object' && error !== null) {
      const { code, message: text } = error as { code?: unknown; message?: unknown };
      return { error: { code: typeof code === 'number' ? code : NaN, message: String(text) } };
    }
    const result = body['result'];
    if (!response.ok || typeof result !== 'object' || result === null)
      throw new Error(`${method}: HTTP ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
    return { result: result as Record<string, unknown> };
  }
}

function pollInterval(result: Record<string, unknown>, fallback: number): number {
  const value = result['pollIntervalMs'];
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function emptySoakResult(): SoakLoadResult {
  return {
    created: 0,
    polls: 0,
    terminal: {},
    expired: 0,
    purgeConfirmed: 0,
    notPurged: [],
    goneEarly: [],
    uncheckedAtEnd: 0,
    errors: [],
  };
}

/**
 * Runs the clients until `signal` aborts and every due purge check is made.
 * The counts go into `result` as they happen, so a caller may read progress.
 */
export async function runSoakLoad(
  options: SoakLoadOptions,
  result: SoakLoadResult = emptySoakResult(),
): Promise<SoakLoadResult> {
  await Promise.all(
    Array.from({ length: options.clients }, (_, i) => new SoakClient(i + 1, options, result).run()),
  );
  return result;
}
