/**
 * A stage for engine tests: no server, just an observation the test edits
 * (as if messages arrived) and a record of what the steps asked for.
 */
import type { WireRow } from '../../../src/client/wire-annotation.ts';
import type { Observation, TaskView } from '../../../src/scenarios/observation.ts';
import type { ScenarioStage, StageSetup } from '../../../src/scenarios/stage.ts';

export class FakeStage implements ScenarioStage {
  readonly actions: string[] = [];
  /** Each change to the server's job clock, apart from the actions: `true` held, `false` let go. */
  readonly holds: boolean[] = [];
  resets: StageSetup[] = [];
  readonly #now: () => number;
  readonly #listeners = new Set<() => void>();
  #obs: Observation;

  /** How often `observe` was called. */
  observations = 0;
  /** Absent on a stage built with `pushes: false`: the run then looks every tick. */
  readonly watch: ScenarioStage['watch'];

  constructor(now: () => number, { pushes = true }: { pushes?: boolean } = {}) {
    this.#now = now;
    this.watch = pushes
      ? (onChange) => {
          this.#listeners.add(onChange);
          return () => this.#listeners.delete(onChange);
        }
      : undefined;
    this.#obs = {
      now: 0,
      wire: [],
      tasks: [],
      calls: [],
      probes: [],
      faults: [],
      peers: [],
      connected: true,
      pageLoadedAt: 0,
    };
  }

  /** What the stage shows; setting it tells whoever watches, as a real stage pushes its changes. */
  get obs(): Observation {
    return this.#obs;
  }

  set obs(obs: Observation) {
    this.#obs = obs;
    for (const listener of [...this.#listeners]) listener();
  }

  /** How many are watching now (a stopped run leaves nobody watching). */
  get watchers(): number {
    return this.#listeners.size;
  }

  /** A row arrives (only the fields the tests look at matter). */
  addRow(row: Partial<WireRow>): void {
    const full: WireRow = {
      seq: this.obs.wire.length + 1,
      at: this.#now(),
      direction: 'in',
      kind: 'result',
      method: undefined,
      id: 1,
      taskId: undefined,
      gist: '',
      status: undefined,
      resultType: undefined,
      reissueOf: undefined,
      reissueReason: undefined,
      net: undefined,
      http: undefined,
      node: undefined,
      message: {},
      connection: undefined,
      ...row,
    };
    this.obs = { ...this.obs, wire: [...this.obs.wire, full] };
  }

  setTask(task: Partial<TaskView> & { taskId: string }): void {
    const base: TaskView = {
      toolName: 'slow_compute',
      serverStatus: 'working',
      statusMessage: undefined,
      final: undefined,
      regions: undefined,
      polls: 0,
      pollIntervalMs: 500,
      cancelRequested: false,
      pendingInputKeys: [],
      answeredKeys: [],
      result: undefined,
      error: undefined,
      resumes: 0,
      takeover: undefined,
      ...task,
    };
    this.obs = {
      ...this.obs,
      tasks: [...this.obs.tasks.filter((t) => t.taskId !== task.taskId), base],
    };
  }

  async reset(setup: StageSetup): Promise<void> {
    this.resets.push(setup);
  }
  observe(since: number): Observation {
    this.observations++;
    return { ...this.obs, now: this.#now(), wire: this.obs.wire.filter((row) => row.at >= since) };
  }
  callTool(name: string, args: Record<string, unknown>, declare: boolean): void {
    this.actions.push(
      `call ${name} ${JSON.stringify(args)} ${declare ? 'declared' : 'undeclared'}`,
    );
  }
  answer(taskId: string, key: string): void {
    this.actions.push(`answer ${taskId} ${key}`);
  }
  answerCall(toolName: string, key: string): void {
    this.actions.push(`answer call ${toolName} ${key}`);
  }
  cancel(taskId: string): void {
    this.actions.push(`cancel ${taskId}`);
  }
  probe(label: string): void {
    this.actions.push(`probe ${label}`);
  }
  async openConnection(name: string): Promise<void> {
    this.actions.push(`open ${name}`);
  }
  dropConnection(): void {
    this.actions.push('drop');
  }
  killServer(): void {
    this.actions.push('kill');
  }
  restartServer(): void {
    this.actions.push('restart');
  }
  killNode(node: number): void {
    this.actions.push(`kill node ${node}`);
  }
  restartNode(node: number): void {
    this.actions.push(`restart node ${node}`);
  }
  cutNode(node: number, cut: boolean): void {
    this.actions.push(`${cut ? 'cut' : 'rejoin'} node ${node}`);
  }
  setEarlyHandle(node: number, on: boolean): void {
    this.actions.push(`early handle node ${node} ${on ? 'on' : 'off'}`);
  }
  arm(trigger: string): void {
    this.actions.push(`arm ${trigger}`);
  }
  setConditions(direction: string): void {
    this.actions.push(`conditions ${direction}`);
  }
  setPush(on: boolean): void {
    this.actions.push(`push ${on}`);
  }
  holdJobs(held: boolean): void {
    this.holds.push(held);
  }
  reload(): Promise<never> {
    this.actions.push('reload');
    return new Promise<never>(() => {});
  }
}
