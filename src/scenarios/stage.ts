/**
 * What a scenario may do to the playground. The page implements it over its
 * real server worker, client and network (src/ui/state/scenario-stage.ts);
 * the engine's unit tests implement it with a scripted fake. Everything a
 * step does goes through the page's own client, so it shows in the wire log.
 */
import type { RuleAction, TriggerId } from '../net/fault-rules.ts';
import type { DirectionConditions, LinkDirection } from '../net/link-conditions.ts';
import type { Scheduler } from '../net/scheduler.ts';
import type { ElicitResult } from '../protocol/elicitation.ts';
import type { ClusterSetup } from '../session/scenario-setup.ts';
import type { Observation } from './observation.ts';

export type ServerStore = 'memory' | 'indexeddb';

/** How the stage is set before a scenario's first step. */
export interface StageSetup {
  /** Where the server keeps tasks; switching restarts the worker. Default `memory`. */
  store: ServerStore;
  /** The declare switch (T1). Default on. */
  declareTasks: boolean;
  /** Server nodes behind the page's balancer, and its policy. Default: one node, the single server. */
  cluster?: ClusterSetup;
}

export interface RequestOptions {
  /** Declare io.modelcontextprotocol/tasks on this request (T1). */
  declare: boolean;
  /** A connection opened with {@link ScenarioStage.openConnection}; the page's own client by default. */
  connection?: string;
}

export interface ScenarioStage {
  /**
   * The clock the stage's world runs on (the page's world clock), when it has its own: the run's
   * reading delays, step timeouts and looks keep to it, so with the world paused the run pauses
   * and in slow motion it slows down. Without one the run takes the real clock.
   */
  readonly clock?: Scheduler;
  /**
   * A clean stage: no task cards, no armed faults, a clean link, push off,
   * the wire log emptied, the server running with `setup.store`, the page's
   * client connected.
   */
  reset(setup: StageSetup): Promise<void>;
  /** The run was closed: what the scenario changed of the learner's own choices (the server store) comes back. */
  leave?(): void;
  /** The facts since `since` (epoch ms: the run's start); cheap, called on every change. */
  observe(since: number): Observation;
  /**
   * Calls `onChange` whenever what `observe` returns may have changed (a
   * message, a task's state, a probe's answer); returns the unsubscribe.
   * A stage without it is looked at every `TICK_MS` instead.
   */
  watch?(onChange: () => void): () => void;
  /** A tools/call through the page's call path (a task handle is followed, T7). */
  callTool(name: string, args: Record<string, unknown>, declare: boolean): void;
  /** Answers one input request of a followed task (T15). */
  answer(taskId: string, key: string, response: ElicitResult): void;
  /**
   * Answers one input request that the newest `tools/call` of `toolName`
   * got before any task existed (`resultType: "input_required"`); once every
   * key is answered the call is sent again, carrying them (T16).
   */
  answerCall(toolName: string, key: string, response: ElicitResult): void;
  /** The task card's Cancel (T17). */
  cancel(taskId: string): void;
  /** A raw request whose answer lands in `observe().probes` under `label`. */
  probe(
    label: string,
    method: string,
    params: Record<string, unknown>,
    options: RequestOptions,
  ): void;
  /** Opens another connection to the same server, as `identity` (M5, T20). */
  openConnection(name: string, identity: string): Promise<void>;
  /** Breaks the page's link; the client reconnects and re-issues (C8). */
  dropConnection(): void;
  killServer(): void;
  /** Starts a fresh server worker (after a kill: its memory is empty). */
  restartServer(): void;
  /** Kills one node of the cluster (1 to 5); the others go on. */
  killNode(node: number): void;
  /** Starts a fresh worker on one node (empty memory). */
  restartNode(node: number): void;
  /** Cuts one node off from the balancer (it keeps running), or lets it back. */
  cutNode(node: number, cut: boolean): void;
  /**
   * The T8 toggle on one node: on, it returns each task's handle before its
   * store write lands (the bug, on purpose); off, it stores first. The node
   * restarts with it. Every scenario starts with it off everywhere.
   */
  setEarlyHandle(node: number, on: boolean): void;
  /** Schedules a fault on a message (src/net/fault-rules.ts). */
  arm(trigger: TriggerId, action: RuleAction): void;
  setConditions(direction: LinkDirection, conditions: DirectionConditions): void;
  /** The "also subscribe" switch: subscriptions/listen for the followed tasks (T18). */
  setPush(on: boolean): void;
  /**
   * Holds the clock the server's jobs sleep on, or lets it run: the drill
   * holds it while the learner guesses, so the task asked about stays put.
   */
  holdJobs(held: boolean): void;
  /** Reloads the page; never resolves: the run carries on after the load from what was saved. */
  reload(): Promise<never>;
}
