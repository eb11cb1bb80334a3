/**
 * The scenario engine's stage (src/scenarios/stage.ts), played on the real
 * page: every action goes to the page session (src/session), the same
 * object the learner's clicks reach. What a scenario sees (`observe`) is
 * read from the same state the page shows (the Playground's views).
 */
import type { ElicitResult } from '../../protocol/elicitation.ts';
import type { RuleAction, TriggerId } from '../../net/fault-rules.ts';
import type { Scheduler } from '../../net/scheduler.ts';
import type { DirectionConditions, LinkDirection } from '../../net/link-conditions.ts';
import type {
  CallView,
  Observation,
  PeerReport,
  ProbeView,
  TaskView,
} from '../../scenarios/observation.ts';
import type { RequestOptions, ScenarioStage, StageSetup } from '../../scenarios/stage.ts';
import type { PageSession } from '../../session/page-session.ts';
import {
  prepareScenario,
  ScenarioStoreKeeper,
  storeFirstEverywhere,
} from '../../session/scenario-setup.ts';
import type { FollowedTask } from './followed-task.svelte.ts';
import { listenToPeers } from './peer-tabs.ts';
import type { Playground } from './playground.svelte.ts';

function taskView(task: FollowedTask): TaskView {
  const activity = task.activity;
  return {
    taskId: task.taskId,
    toolName: task.toolName,
    serverStatus: task.serverStatus,
    statusMessage: task.context.task.statusMessage,
    final: activity.done ? activity.final : undefined,
    regions: activity.done
      ? undefined
      : {
          lifecycle: activity.lifecycle,
          input: activity.input,
          cancel: activity.cancel,
          link: activity.link,
        },
    polls: task.context.polls,
    pollIntervalMs: task.pollIntervalMs,
    cancelRequested: task.context.cancelRequested,
    pendingInputKeys: task.pendingInputs.map(([key]) => key),
    answeredKeys: [...task.context.answeredKeys],
    result: task.result,
    error: task.error,
    resumes: task.jobProgress?.resumes ?? 0,
    takeover: task.jobProgress?.takeover,
  };
}

export class PageStage implements ScenarioStage {
  readonly #session: PageSession;
  readonly #playground: Playground;
  /** The server store the learner had before the first scenario, given back when the run is closed. */
  readonly #storeKeeper: ScenarioStoreKeeper;
  #probes: ProbeView[] = [];
  #peers: PeerReport[] = [];
  readonly #stopListening: () => void;

  /** Acts on `playground.session`; observes what `playground` shows. */
  constructor(playground: Playground) {
    this.#session = playground.session;
    this.#playground = playground;
    this.#storeKeeper = new ScenarioStoreKeeper(playground.session, sessionStorage);
    this.#stopListening = listenToPeers((report) => {
      this.#peers = [
        ...this.#peers,
        { taskId: report.taskId, status: report.status, error: report.error },
      ];
    });
  }

  dispose(): void {
    this.#stopListening();
  }

  /** The page's world clock (the network's): a run pauses and slows with the world. */
  get clock(): Scheduler {
    return this.#session.network.scheduler;
  }

  async reset(setup: StageSetup): Promise<void> {
    this.#probes = [];
    this.#peers = [];
    this.#storeKeeper.entering();
    await prepareScenario(this.#session, setup, this.#playground.cluster?.endpoint);
  }

  leave(): void {
    this.#storeKeeper.left();
    const cluster = this.#playground.cluster?.endpoint;
    if (cluster) storeFirstEverywhere(cluster);
  }

  observe(since: number): Observation {
    const p = this.#playground;
    const calls = p.calls.records
      .filter((r) => r.startedAt >= since)
      .toReversed()
      .map((r): CallView => ({
        toolName: r.toolName,
        declared: r.declared,
        outcome: r.outcome.kind,
        errorCode:
          r.outcome.kind === 'error' && r.outcome.error.kind === 'rpc'
            ? r.outcome.error.code
            : undefined,
        result: r.outcome.kind === 'result' ? r.outcome.result : undefined,
      }));
    return {
      now: this.clock.now(),
      wire: p.wire.rowsNow().filter((row) => row.at >= since),
      // Oldest first; a task followed before the run (e.g. restored from storage) is not this run's.
      tasks: p.tasks
        .filter((t) => t.followedAt >= since)
        .toReversed()
        .map(taskView),
      calls,
      probes: this.#probes,
      faults: p.network.eventsNow().filter((e) => e.at >= since),
      peers: this.#peers,
      connected: this.#session.connection.state === 'open',
      pageLoadedAt: performance.timeOrigin,
    };
  }

  callTool(name: string, args: Record<string, unknown>, declare: boolean): void {
    void this.#playground.calls.call(name, args, declare);
  }

  answer(taskId: string, key: string, response: ElicitResult): void {
    this.#session.answer(taskId, key, response);
  }

  answerCall(toolName: string, key: string, response: ElicitResult): void {
    const waiting = this.#playground.calls.records.find(
      (r) => r.toolName === toolName && r.outcome.kind === 'input',
    );
    if (waiting) this.#playground.calls.answer(waiting.id, key, response);
  }

  cancel(taskId: string): void {
    this.#session.cancel(taskId);
  }

  probe(
    label: string,
    method: string,
    params: Record<string, unknown>,
    options: RequestOptions,
  ): void {
    const connection = options.connection ?? 'page';
    const probe: ProbeView = {
      label,
      method,
      connection,
      state: 'pending',
      result: undefined,
      error: undefined,
    };
    this.#probes = [...this.#probes, probe];
    const settle = (done: ProbeView): void => {
      this.#probes = this.#probes.map((p) => (p === probe ? done : p));
    };
    this.#session.request(method, params, options).then(
      (result) => settle({ ...probe, state: 'result', result }),
      (error: unknown) => {
        const e =
          typeof error === 'object' && error !== null
            ? (error as { code?: unknown; message?: unknown })
            : {};
        settle({
          ...probe,
          state: 'error',
          error: {
            code: typeof e.code === 'number' ? e.code : undefined,
            message: typeof e.message === 'string' ? e.message : String(error),
          },
        });
      },
    );
  }

  openConnection(name: string, identity: string): Promise<void> {
    return this.#session.openConnection(name, identity);
  }

  dropConnection(): void {
    this.#session.dropConnection();
  }

  killServer(): void {
    this.#session.killServer();
  }

  restartServer(): void {
    this.#session.restartServer();
  }

  killNode(node: number): void {
    this.#playground.cluster?.kill(node);
  }

  restartNode(node: number): void {
    this.#playground.cluster?.restart(node);
  }

  cutNode(node: number, cut: boolean): void {
    this.#playground.cluster?.setCut(node, cut);
  }

  setEarlyHandle(node: number, on: boolean): void {
    this.#playground.cluster?.setEarlyHandle(node, on);
  }

  arm(trigger: TriggerId, action: RuleAction): void {
    this.#session.network.arm(trigger, action);
  }

  setConditions(direction: LinkDirection, conditions: DirectionConditions): void {
    this.#session.network.setConditions(direction, conditions);
  }

  setPush(on: boolean): void {
    this.#session.setPush(on);
  }

  holdJobs(held: boolean): void {
    this.#session.holdJobs(held);
  }

  reload(): Promise<never> {
    location.reload();
    // The page is going away: nothing after this may run, and the step carries on after the load.
    return new Promise<never>(() => {});
  }
}
