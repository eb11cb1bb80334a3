/**
 * The real server and the real page, end to end, on one fake clock
 * (vitest's timers): the server node (./server-node.ts) over an in-process
 * MessageChannel, and the page's own `PageSession` (src/session) in front of
 * it, with its fault-injecting network, client, follower and journal over a
 * page store. Nothing of the page is re-wired here: a page "reload" closes
 * the session and starts a fresh one on the same page store, which restores
 * every stored task as the page does on load.
 *
 * Everything that crosses the boundary and every store write is recorded
 * in a `Ledger`, for the invariants the property tests check.
 */
import { vi } from 'vitest';
import type { WireEntry } from '../../../src/client/rpc-client.ts';
import type { TaskActor } from '../../../src/client/task-follower.ts';
import type { FaultyNetwork } from '../../../src/net/faulty-network.ts';
import { cleanLink, type LinkConditions } from '../../../src/net/link-conditions.ts';
import type { PlaygroundServerOptions } from '../../../src/server/playground-server.ts';
import { isDone } from '../../../src/session/followed-tasks.ts';
import { PageSession } from '../../../src/session/page-session.ts';
import type { ServerEndpoint } from '../../../src/session/server-endpoint.ts';
import { MemoryPageStore } from '../../../src/store/memory-page-store.ts';
import { Ledger } from './ledger.ts';
import { ServerNode, type StoreKind } from './server-node.ts';

export { IDENTITY } from '../../../src/session/page-session.ts';
export type { StoreKind } from './server-node.ts';

/** Timers and Date are fake; setImmediate stays real, because fake-indexeddb and the settling loop run on it. */
export const FAKE_TIMERS: Parameters<typeof vi.useFakeTimers>[0] = {
  toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
};

const realImmediate = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * One incarnation of the page: its session, and what the test watches of
 * it (every wire entry; each task it shows, for T14).
 */
export class Page {
  readonly session: PageSession;
  readonly wire: WireEntry[] = [];
  /** When this page closed (a reload). */
  closedAt: number | undefined;
  readonly #ledger: Ledger;

  constructor(session: PageSession, ledger: Ledger) {
    this.session = session;
    this.#ledger = ledger;
    session.on('wire', (entry) => {
      this.wire.push(entry);
      ledger.activity++;
    });
    session.on('followed', ({ actor, restored }) => {
      if (!restored) ledger.followed.add(actor.getSnapshot().context.taskId);
      this.#watch(actor);
    });
  }

  /** The tasks this page follows, oldest first. */
  get actors(): readonly TaskActor[] {
    return this.session.tasks.toReversed();
  }

  /** A tools/call as the page makes it (T7, T12); a malformed answer is a server bug. */
  async call(name: string, args: Record<string, unknown>, declare: boolean): Promise<void> {
    try {
      await this.session.callTool({ name, arguments: args, tasks: declare });
    } catch (error) {
      // A JSON-RPC error (-32021, T3) or a closed page is an answer; a malformed one is a server bug.
      if ((error as { kind?: string }).kind === 'invalid-response')
        this.#ledger.violation(`${name}: ${(error as { message: string }).message}`);
    }
  }

  /** The simulated user answers every question on screen, once. */
  answerAll(): void {
    for (const actor of this.actors) {
      const { taskId, pendingInputs } = actor.getSnapshot().context;
      const keys = Object.keys(pendingInputs);
      if (keys.length === 0 || isDone(actor)) continue;
      for (const key of keys) this.#ledger.answered.add(`${taskId}/${key}`);
      actor.send({
        type: 'task.answer',
        responses: Object.fromEntries(
          keys.map((key) => [
            key,
            {
              action: 'accept',
              content: { confirm: true, name: 'Ada', color: 'teal', approve: true },
            },
          ]),
        ),
      });
    }
  }

  cancel(index: number): void {
    const live = this.actors.filter((a) => !isDone(a));
    const actor = live[index % Math.max(1, live.length)];
    if (actor) this.session.cancel(actor.getSnapshot().context.taskId);
  }

  /** The page goes away: its session closes (the journal keeps the tasks' facts). */
  close(): void {
    this.closedAt = Date.now();
    void this.session.close();
  }

  #watch(actor: TaskActor): void {
    actor.subscribe((snapshot) => {
      // T14: a key the user answered is never put in front of them again, on any page.
      for (const key of Object.keys(snapshot.context.pendingInputs)) {
        if (this.#ledger.answered.has(`${snapshot.context.taskId}/${key}`))
          this.#ledger.violation(
            `T14: ${snapshot.context.taskId}/${key} was asked again after it was answered`,
          );
      }
    });
  }
}

/** The whole stack, and the fake clock that drives it. */
export class RealStack {
  readonly ledger = new Ledger();
  readonly pageStore = new MemoryPageStore();
  readonly node: ServerNode;
  readonly pages: Page[] = [];
  /** Every tools/call the test made, and whether it settled (answered, or abandoned by a reload). */
  readonly calls: { settled: boolean; page: Page }[] = [];
  readonly #seed: number;
  /** Where the pages' server is: the node, or the test's own endpoint (a cluster of nodes). */
  readonly endpoint: ServerEndpoint;
  /** The link conditions the test set: a reloaded page's fresh network starts with them too. */
  #conditions: LinkConditions = cleanLink();

  constructor(
    kind: StoreKind,
    seed: number,
    options: PlaygroundServerOptions = {},
    endpoint?: (ledger: Ledger) => ServerEndpoint,
  ) {
    this.node = new ServerNode(kind, this.ledger, options);
    this.endpoint = endpoint?.(this.ledger) ?? this.node;
    this.#seed = seed;
  }

  get page(): Page {
    const page = this.pages.at(-1);
    if (!page) throw new Error('no page yet');
    return page;
  }

  /** The current page's network: every link passes through it. */
  get network(): FaultyNetwork {
    return this.page.session.network;
  }

  /** A page loads: its session restores what was kept and connects. */
  async open(): Promise<void> {
    const session = new PageSession({
      endpoint: this.endpoint,
      pageStore: this.pageStore,
      // Each page draws its own fates, the same ones for the same seed.
      seed: this.#seed + this.pages.length,
      preferences: undefined,
      clientName: 'property-page',
      wireBatchMs: 1000,
    });
    const page = new Page(session, this.ledger);
    this.pages.push(page);
    this.#apply(session.network);
    // Resolves once the tools are listed, which a lossy link may hold up: the page is usable once connected.
    void session.start();
    await this.settle();
    await session.whenConnected();
    await this.settle();
  }

  /** A reload: this page closes, a fresh one carries on from what was kept. */
  async reload(): Promise<void> {
    this.page.close();
    await this.open();
  }

  call(name: string, args: Record<string, unknown>, declare: boolean): void {
    const page = this.page;
    const entry = { settled: false, page };
    this.calls.push(entry);
    void page.call(name, args, declare).then(
      () => (entry.settled = true),
      () => (entry.settled = true),
    );
  }

  setConditions(conditions: LinkConditions): void {
    this.#conditions = conditions;
    this.#apply(this.network);
  }

  #apply(network: FaultyNetwork): void {
    network.setConditions('out', this.#conditions.out);
    network.setConditions('in', this.#conditions.in);
  }

  /**
   * Lets real asynchronous work finish (hashing, IndexedDB, message hops)
   * until nothing has happened for a while, so each fake-clock step sees a
   * settled system and a seed replays the same run.
   */
  async settle(): Promise<void> {
    let last = this.ledger.activity;
    // Requests must finish too: hashing the caller's identity runs on libuv's thread pool, which no
    // fixed number of turns is sure to outwait. Every request here answers without waiting on the clock.
    for (let quiet = 0, i = 0; (quiet < 12 || this.ledger.inFlight > 0) && i < 20_000; i++) {
      await realImmediate();
      if (this.ledger.activity === last) quiet++;
      else {
        quiet = 0;
        last = this.ledger.activity;
      }
    }
  }

  /**
   * Advances the fake clock by `ms`, one timer at a time, settling after
   * each: a request that reached the server is answered before the clock
   * moves on, so the same seed replays the same run.
   */
  async advance(ms: number): Promise<void> {
    const until = Date.now() + ms;
    // A timer at the end, so stepping from timer to timer never overshoots it.
    const end = setTimeout(() => {}, ms);
    try {
      while (Date.now() < until) {
        await vi.advanceTimersToNextTimerAsync();
        await this.settle();
      }
    } finally {
      clearTimeout(end);
    }
  }

  async close(): Promise<void> {
    for (const page of this.pages) if (page.closedAt === undefined) page.close();
    this.endpoint.kill('test over');
    await this.node.close();
  }
}
