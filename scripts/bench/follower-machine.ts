/**
 * The task follower machine's own cost per poll, in Node on xstate's
 * `SimulatedClock`: 1,000 actors of the real `taskMachine`, each polled N
 * times at 250 ms, every tasks/get answered at once (a resolved promise, no
 * network). Beside it, the same schedule on the smallest xstate machine that
 * can poll (two states, a delay, an assign per answer): the floor any xstate
 * follower pays, measured in the same run. And the task machine with its
 * `lifecycle` region alone (the same states, actions and guards; `input`,
 * `cancel` and `link` left out, none of which acts on a poll): what the other
 * regions' active states cost each poll, since xstate walks and rebuilds the
 * whole state value on every event and every `assign`. Figures: CPU time per poll
 * (`process.cpuUsage`), bytes allocated per poll (V8's sampling heap
 * profiler, objects already collected included), and what xstate did per
 * poll (inspection events: microsteps, snapshots, actors created).
 */
import { Session } from 'node:inspector/promises';
import {
  assign,
  createActor,
  createMachine,
  setup,
  SimulatedClock,
  type AnyStateMachine,
} from 'xstate';
import { pollsBy, taskMachine } from '../../src/machines/task-machine.ts';
import type { DetailedTask } from '../../src/protocol/task.ts';
import type { BenchPart } from './context.ts';
import { figure, type Figure } from './figures.ts';

const PART = 'follower-machine';
const INTERVAL_MS = 250;
const CREATED = '2026-07-28T10:00:00.000Z';
const BASE = Date.parse(CREATED);

function working(taskId: string): DetailedTask {
  return {
    taskId,
    status: 'working',
    statusMessage: 'step 1 of 20',
    createdAt: CREATED,
    lastUpdatedAt: CREATED,
    ttlMs: null,
    pollIntervalMs: INTERVAL_MS,
  };
}

/** A tasks/get answered at once: a fresh report object each time, as a parsed message would be. */
const answerAtOnce = (taskId: string): Promise<DetailedTask> =>
  Promise.resolve({ ...working(taskId) });

/** The floor: waiting -after-> polling (entry: ask) -poll.answered-> waiting, one assign. */
const floor = setup({
  types: {} as {
    context: { task: DetailedTask; polls: number };
    events: { type: 'poll.answered'; task: DetailedTask };
    input: { task: DetailedTask };
  },
  actions: {
    ask: ({ self }, params: { taskId: string }) => {
      void answerAtOnce(params.taskId).then((task) => self.send({ type: 'poll.answered', task }));
    },
  },
}).createMachine({
  context: ({ input }) => ({ task: input.task, polls: 0 }),
  initial: 'waiting',
  states: {
    waiting: { after: { [INTERVAL_MS]: 'polling' } },
    polling: {
      entry: [
        assign({ polls: ({ context }) => context.polls + 1 }),
        { type: 'ask', params: ({ context }) => ({ taskId: context.task.taskId }) },
      ],
      on: {
        'poll.answered': {
          target: 'waiting',
          actions: assign({ task: ({ event }) => event.task }),
        },
      },
    },
  },
});

/**
 * The task machine's definition with `active` holding its `lifecycle` region only, and the
 * same implementations: a poll runs exactly the same transitions, actions and guards.
 */
function lifecycleAlone(machine: typeof taskMachine): typeof taskMachine {
  const { config } = machine;
  const active = config.states!.active!;
  const pruned = { ...active, states: { lifecycle: active.states!.lifecycle! } };
  return createMachine(
    { ...config, states: { ...config.states, active: pruned } } as typeof config,
    machine.implementations,
  ) as unknown as typeof taskMachine;
}

/** The task machine with its tasks/get answered by `get`; updates and cancels are never made here. */
const providePolls = (
  machine: typeof taskMachine,
  get: (taskId: string) => Promise<DetailedTask>,
) => machine.provide({ actions: { sendPoll: pollsBy(get) } });

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Counts of inspection events by type, when asked for. */
type Tally = Map<string, number>;

/** Starts `actors` actors of `machine`, advances the clock `polls` intervals, checks every actor polled that often. */
async function follow(
  machine: AnyStateMachine,
  actors: number,
  polls: number,
  tally?: Tally,
): Promise<void> {
  const clock = new SimulatedClock();
  const now = () => BASE + clock.now();
  const inspect = tally
    ? (event: { type: string }) => tally.set(event.type, (tally.get(event.type) ?? 0) + 1)
    : undefined;
  const started = Array.from({ length: actors }, (_, i) => {
    const taskId = `task-${i}`;
    const input = { task: working(taskId), toolName: 'slow_compute', now };
    return createActor(machine, { clock, input, ...(inspect ? { inspect } : {}) }).start();
  });
  for (let p = 0; p < polls; p++) {
    clock.increment(INTERVAL_MS);
    await settle();
  }
  for (const actor of started) {
    const { polls: made } = actor.getSnapshot().context as { polls: number };
    if (made !== polls) throw new Error(`an actor polled ${made} times, not ${polls}`);
    actor.stop();
  }
}

interface Cost {
  cpuUsPerPoll: number;
  bytesPerPoll: number;
  perPoll: Record<string, number>;
}

/** Bytes allocated while `work` runs, by V8's sampling heap profiler (collected objects counted too). */
async function allocated(session: Session, work: () => Promise<void>): Promise<number> {
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await work();
  const { profile } = await session.post('HeapProfiler.stopSampling');
  let bytes = 0;
  const walk = (node: (typeof profile)['head']): void => {
    bytes += node.selfSize;
    node.children.forEach(walk);
  };
  walk(profile.head);
  return bytes;
}

/** What `fn(polls)` costs beyond `fn(0)`: the polls alone, without starting and stopping the actors. */
async function beyondStart(fn: (polls: number) => Promise<number>, polls: number): Promise<number> {
  const all = await fn(polls);
  return all - (await fn(0));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

async function cpuUs(work: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const { user, system } = process.cpuUsage(before);
  return user + system;
}

async function measure(
  machine: AnyStateMachine,
  actors: number,
  polls: number,
  session: Session,
): Promise<Cost> {
  await follow(machine, actors, 2); // warm: the JIT has seen every path once
  const made = actors * polls;
  const rounds: number[] = [];
  for (let round = 0; round < 3; round++)
    rounds.push(await beyondStart((n) => cpuUs(() => follow(machine, actors, n)), polls));
  const bytes = await beyondStart(
    (n) => allocated(session, () => follow(machine, actors, n)),
    polls,
  );
  const tallied = 10;
  const tallies = [polls, 0].map((n) => {
    const tally: Tally = new Map();
    return follow(machine, tallied, n, tally).then(() => tally);
  });
  const [all, start] = await Promise.all(tallies);
  const perPoll = Object.fromEntries(
    [...all!].map(([type, count]) => [type, (count - (start!.get(type) ?? 0)) / (tallied * polls)]),
  );
  return { cpuUsPerPoll: median(rounds) / made, bytesPerPoll: bytes / made, perPoll };
}

export const followerMachine: BenchPart = {
  name: PART,
  async run(ctx) {
    const actors = 1000;
    const polls = ctx.small ? 5 : 20;
    const session = new Session();
    session.connect();
    await session.post('HeapProfiler.enable');
    ctx.log(`${PART}: ${actors} actors, ${polls} polls each, the floor machine first`);
    const bare = await measure(floor, actors, polls, session);
    const ours = await measure(providePolls(taskMachine, answerAtOnce), actors, polls, session);
    const alone = await measure(
      providePolls(lifecycleAlone(taskMachine), answerAtOnce),
      actors,
      polls,
      session,
    );
    session.disconnect();
    const label = `${actors.toLocaleString('en')} actors × ${polls} polls`;
    const steps = (cost: Cost) =>
      ['@xstate.event', '@xstate.microstep', '@xstate.snapshot', '@xstate.actor']
        .map((type) => `${type.slice(8)} ${(cost.perPoll[type] ?? 0).toFixed(2)}`)
        .join(', ');
    const figures: Figure[] = [
      figure(
        PART,
        `task machine: CPU per poll, ${label}`,
        ours.cpuUsPerPoll,
        'µs',
        { name: 'the two-state floor machine', value: bare.cpuUsPerPoll },
        `per poll, the task machine: ${steps(ours)}; the floor: ${steps(bare)}`,
      ),
      figure(PART, `task machine: allocated per poll, ${label}`, ours.bytesPerPoll, 'B', {
        name: 'the two-state floor machine',
        value: bare.bytesPerPoll,
      }),
      figure(
        PART,
        `task machine, its lifecycle region alone: CPU per poll, ${label}`,
        alone.cpuUsPerPoll,
        'µs',
        { name: 'the task machine, four regions', value: ours.cpuUsPerPoll },
        `allocated per poll: ${alone.bytesPerPoll.toFixed(0)} B, four regions ${ours.bytesPerPoll.toFixed(0)} B; what the input, cancel and link regions cost a poll, though none acts on it`,
      ),
    ];
    return figures;
  },
};
