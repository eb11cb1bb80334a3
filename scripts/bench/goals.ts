/**
 * The performance goals (issue 16, and issue 13's cluster aim), each read off the run's own
 * figures as a ratio against a reference from the same run (or a budget),
 * printed after the table: figure, reference, ratio, the bound, met or not.
 * A goal whose figures were not measured (another part chosen) is left out.
 */
import { AT_TOP, SCROLLED } from './page-follow.ts';
import { bestAchievedName } from './schedule-floor.ts';
import type { Figure } from './figures.ts';

export interface GoalResult {
  goal: string;
  value: number;
  unit: string;
  reference: { name: string; value: number };
  ratio: number;
  bound: string;
  /** Undefined for a line printed beside a goal, with no bound of its own (the schedule floor). */
  met: boolean | undefined;
}

interface Goal {
  goal: string;
  /** The figure the goal reads (by part and exact name). */
  figure: [part: string, name: string];
  /** The reference, when it is not the figure's own: another figure, or a fixed value. */
  against?: [part: string, name: string] | { name: string; value: number };
  /** What the ratio must be: at most, or at least, `limit`; neither: a reading beside a goal, no goal itself. */
  atMost?: number;
  atLeast?: number;
}

const FOLLOW = (tasks: number, label: string) => `${tasks} tasks @ 250 ms, ${label}`;
const NET = 'memory, via clean FaultyNetwork';

/**
 * Issue 16's page-follow goals, for the full run's 1,000 tasks and, with the
 * same bounds, the small (CI) run's 100, labelled as such.
 */
function followGoals(tasks: number): Goal[] {
  const who = tasks === 1000 ? 'follow 1,000 tasks' : `small run: follow ${tasks} tasks`;
  return [AT_TOP, SCROLLED].flatMap((label): Goal[] => {
    const scrolled = label === SCROLLED;
    const where = scrolled ? 'scrolled' : 'at the top';
    return [
      {
        goal: `${who} (${where}): tasks/get achieved / asked`,
        figure: ['page-follow', `tasks/get achieved, ${FOLLOW(tasks, label)}`],
        atLeast: scrolled ? 0.9 : 0.95,
      },
      ...(scrolled ? [] : scheduleFloorLines(tasks, who)),
      {
        goal: `${who} (${where}): frame p95 / idle`,
        figure: ['page-follow', `frame time p95, ${FOLLOW(tasks, label)}`],
        atMost: scrolled ? 2 : 1.5,
      },
      ...(scrolled
        ? []
        : [
            {
              goal: `${who} (at the top): longest main-thread task / 50 ms`,
              figure: ['page-follow', `longest main-thread task, ${FOLLOW(tasks, label)}`],
              against: { name: 'long task', value: 50 },
              atMost: 1,
            } satisfies Goal,
          ]),
    ];
  });
}

/**
 * Beside the follow goal at the top: what the same schedule achieves with the smallest client
 * (schedule-floor.ts), on the bare port and on the page's client path, and the page against each:
 * how much of the gap to the asked rate is the page and how much the schedule itself.
 */
function scheduleFloorLines(tasks: number, who: string): Goal[] {
  const floor = (path: 'bare' | 'page'): [string, string] => [
    'schedule-floor',
    bestAchievedName(tasks, path),
  ];
  const page: [string, string] = ['page-follow', `tasks/get achieved, ${FOLLOW(tasks, AT_TOP)}`];
  return [
    { goal: `${who}: the schedule floor (bare port, best variant) / asked`, figure: floor('bare') },
    {
      goal: `${who}: the schedule floor (page's client path, best variant) / asked`,
      figure: floor('page'),
    },
    {
      goal: `${who} (at the top): page / the schedule floor (bare port)`,
      figure: page,
      against: floor('bare'),
    },
    {
      goal: `${who} (at the top): page / the schedule floor (page's client path)`,
      figure: page,
      against: floor('page'),
    },
  ];
}

const GOALS: readonly Goal[] = [
  ...followGoals(1000),
  ...followGoals(100),
  {
    goal: 'clean FaultyNetwork path / bare worker path, p50',
    figure: ['worker-roundtrip', `tasks/get p50, ${NET}`],
    against: ['worker-roundtrip', 'tasks/get p50, memory store'],
    atMost: 1.2,
  },
  {
    goal: 'clean FaultyNetwork path / bare worker path, throughput',
    figure: ['worker-roundtrip', 'tasks/get throughput, memory via clean FaultyNetwork'],
    against: ['worker-roundtrip', 'tasks/get throughput, memory (16 in flight)'],
    atLeast: 1 / 1.2,
  },
  {
    goal: 'tasks/get p50 (page path) / postMessage echo',
    figure: ['worker-roundtrip', `tasks/get p50, ${NET}`],
    atMost: 5,
  },
  {
    goal: 'tasks/get throughput (page path) / postMessage echo',
    figure: ['worker-roundtrip', 'tasks/get throughput, memory via clean FaultyNetwork'],
    atLeast: 0.2,
  },
  {
    goal: "resume 100 stored tasks: all re-polled / an empty page's connect",
    figure: ['resume', 'all 100 re-polled, from navigation'],
    atMost: 3,
  },
  {
    goal: 'initial JS (gzip) / 150 KB',
    figure: ['bundle-size', 'page: JS index.html loads, gzip'],
    against: { name: 'goal', value: 150 },
    atMost: 1,
  },
  {
    goal: "Node host: tasks/get / the bare SDK fixture's tools/call, throughput",
    figure: ['node-host', 'tasks/get throughput vs the SDK (10 connections)'],
    atLeast: 2,
  },
  {
    // Issue 13's aim, beside the issue 16 goals: the shared store's cost in p50.
    goal: 'cluster: 3 PostgreSQL nodes behind the balancer / 1 memory node, p50',
    figure: ['cluster', 'tasks/get latency p50, cluster'],
    atMost: 1.5,
  },
];

const find = (figures: readonly Figure[], [part, name]: [string, string]) =>
  figures.find((f) => f.part === part && f.name === name);

/** Every goal whose figures this run measured. */
export function goals(figures: readonly Figure[]): GoalResult[] {
  const results: GoalResult[] = [];
  for (const goal of GOALS) {
    const figure = find(figures, goal.figure);
    if (!figure) continue;
    let reference = figure.reference;
    if (Array.isArray(goal.against)) {
      const other = find(figures, goal.against);
      reference = other && { name: other.name, value: other.value };
    } else if (goal.against) reference = goal.against;
    if (!reference) continue;
    const ratio = figure.value / reference.value;
    const bounded = goal.atMost !== undefined || goal.atLeast !== undefined;
    const met = !bounded
      ? undefined
      : (goal.atMost === undefined || ratio <= goal.atMost) &&
        (goal.atLeast === undefined || ratio >= goal.atLeast);
    results.push({
      goal: goal.goal,
      value: figure.value,
      unit: figure.unit,
      reference,
      ratio,
      bound:
        goal.atMost !== undefined
          ? `<= ${goal.atMost.toFixed(2)}x`
          : goal.atLeast !== undefined
            ? `>= ${goal.atLeast.toFixed(2)}x`
            : '-',
      met,
    });
  }
  return results;
}

function format(value: number, unit: string): string {
  if (!Number.isFinite(value)) return '-';
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
}

/** The goals as a plain-text table. */
export function goalTable(results: readonly GoalResult[]): string {
  const head = ['goal', 'figure', 'reference (same run)', 'ratio', 'bound', 'met'];
  const rows = results.map((r) => [
    r.goal,
    format(r.value, r.unit),
    `${r.reference.name}: ${format(r.reference.value, r.unit)}`,
    Number.isFinite(r.ratio) ? `${r.ratio.toFixed(2)}x` : '-',
    r.bound,
    r.met === undefined ? '-' : r.met ? 'yes' : 'NO',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === 1 || i === 3 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
