/**
 * Resume after a reload with 100 stored tasks (formerly scripts/bench-resume.ts),
 * in Chromium against the production build, on the IndexedDB server store.
 * The reference is the same page reloaded with nothing stored, in the same
 * run. Per reload, in the page's own clock:
 * - restore: reading the journal and the kept wire log and starting a fresh
 *   actor per task (`playground:restore-start` to `playground:tasks-resumed`);
 * - shown: every task in the list and its first card drawn (the list is
 *   virtualised; reference: the tool list on screen), from navigation start;
 * - re-polled: every unfinished task answered by the server again (a
 *   tasks/get answer about it came in on the page's port), from navigation
 *   start; reference: the empty page connected.
 * And on the server's side, read from its database: how often each job was
 * taken over (once per reload, by the fresh worker; more means a live worker
 * lost its lease; fewer, a reload came before the job was handed on), and,
 * once the last reload's worker runs every job, their pace while the page
 * follows all of them: seconds of slow_compute checkpointed per second, 1
 * when nothing slows them.
 */
import type { CDPSession, Page } from '@playwright/test';
import { formatProfile, startProfile } from './cpu-profile.ts';
import { SERVER_DATABASE } from '../../src/protocol/worker-control.ts';
import { PAGE_DATABASE } from '../../src/store/db.ts';
import { answerCounts, CARDS, openApp, startTasks, TASKS_COUNT } from './app-page.ts';
import type { BenchContext, BenchPart } from './context.ts';
import { figure, median } from './figures.ts';
import {
  formatTimeline,
  readTimeline,
  TIMELINE_IN_PAGE,
  type ResumeTimeline,
} from './resume-timeline.ts';

const PART = 'resume';

/** Where the CPU profile of a reload goes, and who prints its summary. */
interface Profiling {
  cdp: CDPSession;
  file: string;
  done(summary: Awaited<ReturnType<Awaited<ReturnType<typeof startProfile>>>>): void;
}

interface Reload {
  timeline?: ResumeTimeline;
  restoreMs: number;
  shownMs: number;
  repolledMs: number;
}

/** How many tasks the page's journal holds (it writes behind the screen, so a reload too soon would lose the newest). */
function journaled(page: Page): Promise<number> {
  return page.evaluate(
    (name) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const count = open.result.transaction('tasks').objectStore('tasks').count();
          count.onerror = () => reject(count.error);
          count.onsuccess = () => {
            open.result.close();
            resolve(count.result);
          };
        };
      }),
    PAGE_DATABASE,
  );
}

interface JobsSeen {
  at: number;
  /** Per unfinished task: the seconds its last checkpoint says are done, when it was saved, and how many times a fresh worker took the job over. */
  tasks: Record<string, { stepsDone: number; savedAt: number; resumes: number }>;
}

/** The server's own record of every job: its last checkpoint and its take-overs. */
function jobsSeen(page: Page): Promise<JobsSeen> {
  return page.evaluate(
    (name) =>
      new Promise<JobsSeen>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('tasks').objectStore('tasks').getAll();
          all.onerror = () => reject(all.error);
          all.onsuccess = () => {
            open.result.close();
            const tasks: JobsSeen['tasks'] = {};
            type Stored = {
              taskId: string;
              status: string;
              resumes?: number;
              checkpoint?: { savedAt: number; data?: { stepsDone?: unknown } };
            };
            for (const record of all.result as Stored[]) {
              // A task that ended (its TTL, on a slow machine) has no job left to watch.
              if (record.status !== 'working') continue;
              const steps = record.checkpoint?.data?.stepsDone;
              tasks[record.taskId] = {
                stepsDone: typeof steps === 'number' ? steps : 0,
                savedAt: record.checkpoint?.savedAt ?? 0,
                resumes: record.resumes ?? 0,
              };
            }
            resolve({ at: Date.now(), tasks });
          };
        };
      }),
    SERVER_DATABASE,
  );
}

const times = (n: number): string => (n === 1 ? 'once' : `${n} times`);

/**
 * Waits until every job has saved a checkpoint since `since` (epoch ms), so the last reload's
 * worker runs them all, then reads them. Not "taken over once per reload": a reload that comes
 * before a job's lease ran out hands it on only once for both.
 */
async function everyJobRunning(page: Page, since: number): Promise<JobsSeen> {
  for (let i = 0; ; i++) {
    const seen = await jobsSeen(page);
    const waiting = Object.values(seen.tasks).filter((t) => t.savedAt <= since).length;
    if (waiting === 0) return seen;
    if (i === 150)
      throw new Error(`after 30 s, ${waiting} jobs had saved no checkpoint since the last reload`);
    await page.waitForTimeout(200);
  }
}

/**
 * When the server had answered a tasks/get about every task in `expected`
 * since the reload, in the page's clock, with the page connected; on a
 * timeout, says how many were not.
 */
async function repolled(page: Page, expected: readonly string[]): Promise<number> {
  try {
    const at = await (
      await page.waitForFunction(
        (ids) => {
          const answers = (window as unknown as { __benchAnswers: Record<string, number> })
            .__benchAnswers;
          return (
            ids.every((id) => (answers[id] ?? 0) > 0) &&
            [...document.querySelectorAll('[role=status]')].some((s) =>
              s.textContent?.includes('Connected as learner'),
            ) &&
            performance.now()
          );
        },
        expected,
        { timeout: 180_000, polling: 20 },
      )
    ).jsonValue();
    return Number(at);
  } catch (error) {
    const answers = await answerCounts(page);
    const stuck = expected.filter((id) => !(answers[id] ?? 0));
    throw new Error(
      `${stuck.length} of ${expected.length} tasks not polled again after the reload; first: ${stuck.slice(0, 3).join(', ')}`,
      { cause: error },
    );
  }
}

/** Reloads and times it; with `tasks` > 0, until every task is listed and every unfinished one polled again. */
async function reload(page: Page, tasks: number, profile?: Profiling): Promise<Reload> {
  for (let i = 0; tasks > 0 && (await journaled(page)) < tasks; i++) {
    if (i === 300)
      throw new Error(`the page journaled ${await journaled(page)} of ${tasks} tasks after 60 s`);
    await page.waitForTimeout(200);
  }
  // The server's unfinished tasks: each must be polled again (one that ended, its TTL on a slow machine, is not).
  const expected = tasks > 0 ? Object.keys((await jobsSeen(page)).tasks) : [];
  // The renderer (and its V8) stays across a same-origin reload, so one profile spans both pages.
  const stop = profile && (await startProfile((m, p) => profile.cdp.send(m as never, p as never)));
  await page.reload({ waitUntil: 'commit' });
  // Each wait returns the page's clock at the moment it held, so its own polling is not counted.
  // Shown: the list holds every task and draws its first card (it is virtualised: only cards near view are drawn).
  const shownMs = await (
    await page.waitForFunction(
      ([selector, count, n]) => {
        const listed = Number(document.querySelector(count)?.textContent ?? 0);
        const shown =
          n > 0
            ? listed >= n && document.querySelector(selector)
            : document.querySelector('button.tool');
        return shown ? performance.now() : false;
      },
      [CARDS, TASKS_COUNT, tasks] as const,
      { timeout: 180_000, polling: 'raf' },
    )
  ).jsonValue();
  const repolledMs = await repolled(page, expected);
  if (stop && profile) profile.done(await stop(profile.file));
  const [restoreAt, seededAt] = await page.evaluate(() =>
    ['playground:restore-start', 'playground:tasks-resumed'].map(
      (name) => performance.getEntriesByName(name)[0]?.startTime ?? NaN,
    ),
  );
  return {
    ...(tasks > 0 ? { timeline: await readTimeline(page, expected) } : {}),
    restoreMs: seededAt! - restoreAt!,
    shownMs: Number(shownMs),
    repolledMs: Number(repolledMs),
  };
}

async function reloads(
  ctx: BenchContext,
  page: Page,
  tasks: number,
  runs: number,
  profile?: Profiling,
): Promise<Reload[]> {
  const results: Reload[] = [];
  for (let run = 1; run <= runs; run++) {
    // The last reload is profiled: its figures count with the others' (the profiler's cost is small at 250 µs).
    const r = await reload(page, tasks, run === runs ? profile : undefined);
    ctx.log(
      `[${PART}] ${tasks} stored, reload ${run}: restore ${r.restoreMs.toFixed(0)} ms, shown ${r.shownMs.toFixed(0)} ms, re-polled ${r.repolledMs.toFixed(0)} ms`,
    );
    if (r.timeline) ctx.log(`[${PART}]   ${formatTimeline(r.timeline)}`);
    results.push(r);
  }
  return results;
}

export const resume: BenchPart = {
  name: PART,
  async run(ctx) {
    const tasks = ctx.small ? 20 : 100;
    const runs = ctx.small ? 1 : 5;
    const context = await (
      await ctx.browser()
    ).newContext({ viewport: { width: 1280, height: 720 } });
    try {
      const page = await context.newPage();
      await page.addInitScript(TIMELINE_IN_PAGE);
      page.on('pageerror', (error) => ctx.log(`[${PART}] page error: ${error.message}`));
      await openApp(page, ctx.appUrl);
      await page.getByRole('radio', { name: 'IndexedDB' }).check();
      await page
        .getByRole('status', { name: 'Server store in use' })
        .filter({ hasText: 'IndexedDB' })
        .waitFor();
      const empty = await reloads(ctx, page, 0, runs);
      ctx.log(`[${PART}] following ${tasks} slow_compute tasks on the IndexedDB store…`);
      await startTasks(page, tasks, { seconds: 600 }, 180_000);
      await page.waitForTimeout(1500);
      const file = `${ctx.outDir}/${PART}-reload.cpuprofile`;
      const full = await reloads(ctx, page, tasks, runs, {
        cdp: await context.newCDPSession(page),
        file,
        done: (summary) => {
          const label = `[${PART}] CPU profile of the last reload (from just before it until every task was polled again), ${file}`;
          for (const line of formatProfile(label, summary)) ctx.log(line);
        },
      });
      const adopted = await everyJobRunning(page, Date.now());
      await page.waitForTimeout(ctx.small ? 5000 : 15_000);
      const paced = await jobsSeen(page);
      const ended = tasks - Object.keys(paced.tasks).length;
      const endedNote =
        ended > 0
          ? `${ended} of ${tasks} tasks ended (TTL) before the last reload: they were not waited for`
          : undefined;
      const of = (list: Reload[], key: 'restoreMs' | 'shownMs' | 'repolledMs') =>
        median(list.map((r) => r[key]));
      const seconds = (paced.at - adopted.at) / 1000;
      const ids = Object.keys(adopted.tasks).filter((id) => paced.tasks[id]);
      const done = ids.map((id) => paced.tasks[id]!.stepsDone - adopted.tasks[id]!.stepsDone);
      const pace = median(done) / seconds;
      const resumes = ids.map((id) => paced.tasks[id]!.resumes);
      const [fewest, most] = [Math.min(...resumes), Math.max(...resumes)];
      const jobsNote =
        `each job taken over ${fewest === most ? times(fewest) : `${fewest} to ${most} times`} in ${runs} reload${runs === 1 ? '' : 's'}` +
        `${most > runs ? ' (more than once per reload: a live worker lost leases)' : ''}; in ${seconds.toFixed(1)} s the slowest job saved ${Math.min(...done)} s of work`;
      ctx.log(`[${PART}] jobs: ${pace.toFixed(2)} s of work per s (median); ${jobsNote}`);
      return [
        figure(
          PART,
          `restore ${tasks} stored tasks (read, seed actors)`,
          of(full, 'restoreMs'),
          'ms',
          { name: 'nothing stored', value: of(empty, 'restoreMs') },
        ),
        figure(PART, `all ${tasks} cards shown, from navigation`, of(full, 'shownMs'), 'ms', {
          name: 'empty page: tools shown',
          value: of(empty, 'shownMs'),
        }),
        figure(
          PART,
          `all ${tasks} re-polled, from navigation`,
          of(full, 'repolledMs'),
          'ms',
          { name: 'empty page: connected', value: of(empty, 'repolledMs') },
          endedNote,
        ),
        figure(
          PART,
          `${tasks} jobs' pace after the last reload (median)`,
          pace,
          's/s',
          { name: 'never slowed', value: 1 },
          jobsNote,
        ),
      ];
    } finally {
      await context.close();
    }
  },
};
