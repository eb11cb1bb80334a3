/**
 * The invariants the real-stack property tests check once a run has
 * settled, one function per group. Each records what it finds broken on the
 * stack's ledger rather than throwing, so one run reports every broken
 * invariant at once, not just the first. (T9, T14 and T15 are checked by the
 * ledger itself, as the writes and answers happen.)
 */
import type { StoredTask } from '../../../src/store/page-store.ts';
import type { RealStack } from './real-stack.ts';

/** T12: every task a page followed is still in the page's store (checked after every step, too). */
export function checkStoredTasks(s: RealStack, stored: { taskId: string }[]): void {
  const kept = new Set(stored.map((t) => t.taskId));
  for (const taskId of s.ledger.followed)
    if (!kept.has(taskId)) s.ledger.violation(`T12: the page lost task ${taskId} from its store`);
}

/** Checks every invariant of a settled run; what is broken ends up in `s.ledger.violations`. */
export async function checkInvariants(s: RealStack): Promise<void> {
  const stored = await s.pageStore.tasks();
  checkStoredTasks(s, stored);
  checkResumed(s, stored);
  await checkGettable(s);
  checkServerAnswers(s);
  checkPageRequests(s);
  checkPollSpacing(s);
  checkCallsSettled(s);
}

/** T12: after the last reload every unfinished stored task is followed again. */
function checkResumed(s: RealStack, stored: StoredTask[]): void {
  const { ledger } = s;
  const following = new Set(s.page.actors.map((a) => a.getSnapshot().context.taskId));
  for (const task of stored)
    if (!task.outcome && !following.has(task.taskId))
      ledger.violation(`T12: stored task ${task.taskId} was not resumed`);
}

/** T8: every handle was gettable the moment it left. */
async function checkGettable(s: RealStack): Promise<void> {
  const { ledger } = s;
  for (const handle of ledger.handles)
    if (!(await handle.gettable))
      ledger.violation(`T8: ${handle.taskId} was not gettable when its CreateTaskResult left`);
}

/** C8: the server answered each request it got exactly once (links cut by a kill excepted). */
function checkServerAnswers(s: RealStack): void {
  const { ledger } = s;
  for (const link of ledger.serverLinks) {
    if (link.killed) continue;
    const count = (ids: (string | number)[]) =>
      ids.reduce((m, id) => m.set(id, (m.get(id) ?? 0) + 1), new Map<string | number, number>());
    const delivered = count(link.delivered);
    const answered = count(link.answered);
    for (const [id, n] of delivered)
      if (answered.get(id) !== n)
        ledger.violation(
          `C8: request ${id} reached the server ${n} time(s) and got ${answered.get(id) ?? 0} response(s)`,
        );
    for (const [id] of answered)
      if (!delivered.has(id)) ledger.violation(`C8: the server answered ${id}, which it never got`);
  }
}

/** C8: each request a page sent is answered or re-issued under a new id, unless its page closed first. */
function checkPageRequests(s: RealStack): void {
  const { ledger } = s;
  for (const page of s.pages) {
    const requests = page.wire.filter(
      (e) =>
        e.direction === 'out' &&
        typeof (e.message as { method?: unknown }).method === 'string' &&
        (e.message as { id?: unknown }).id !== undefined,
    );
    const answeredIds = new Set(
      page.wire
        .filter((e) => e.direction === 'in' && !e.net?.lost)
        .map((e) => (e.message as { id?: unknown }).id),
    );
    const reissued = new Set(page.wire.map((e) => e.reissueOf).filter((id) => id !== undefined));
    // C8: each request is answered or re-issued under a new id, unless its page closed first.
    for (const entry of requests) {
      const id = (entry.message as { id: number }).id;
      if (answeredIds.has(id) || reissued.has(id)) continue;
      if (page.closedAt !== undefined) continue;
      ledger.violation(
        `C8: ${(entry.message as { method: string }).method} ${id} (sent at ${entry.at}) was neither answered nor re-issued`,
      );
    }
  }
}

/** T12: logical polls of one task are at least pollIntervalMs apart, across pages. */
function checkPollSpacing(s: RealStack): void {
  const { ledger } = s;
  const polls = new Map<string, { at: number; answered: boolean }[]>();
  const intervals = new Map<string, number>();
  for (const page of s.pages) {
    const answeredIds = new Set(
      page.wire
        .filter((e) => e.direction === 'in' && !e.net?.lost)
        .map((e) => (e.message as { id?: unknown }).id),
    );
    const chains = new Map<number | string, number | string>(); // re-issued id -> first id of its chain
    for (const entry of page.wire) {
      const m = entry.message as {
        id?: number;
        method?: string;
        params?: { taskId?: string };
        result?: { taskId?: string; pollIntervalMs?: number };
      };
      if (
        entry.direction === 'in' &&
        typeof m.result?.taskId === 'string' &&
        typeof m.result.pollIntervalMs === 'number'
      ) {
        intervals.set(
          m.result.taskId,
          Math.min(intervals.get(m.result.taskId) ?? Infinity, m.result.pollIntervalMs),
        );
      }
      if (entry.direction !== 'out' || m.method !== 'tasks/get' || m.id === undefined) continue;
      const first =
        entry.reissueOf !== undefined ? (chains.get(entry.reissueOf) ?? entry.reissueOf) : m.id;
      chains.set(m.id, first);
      const list = polls.get(m.params!.taskId!) ?? [];
      polls.set(m.params!.taskId!, list);
      if (entry.reissueOf === undefined) list.push({ at: entry.at, answered: false });
      // A poll counts as answered once any id of its chain was.
      if (answeredIds.has(m.id)) list.at(-1)!.answered = true;
    }
  }
  for (const [taskId, list] of polls) {
    const interval = intervals.get(taskId) ?? 0;
    for (let i = 1; i < list.length; i++) {
      const gap = list[i]!.at - list[i - 1]!.at;
      // A poll interrupted by a reload is carried on by the next page's first poll.
      if (gap < interval && list[i - 1]!.answered)
        ledger.violation(
          `T12: task ${taskId} polled ${gap} ms after its previous poll (pollIntervalMs ${interval})`,
        );
    }
  }
}

/** C8: every tools/call the test made was answered, or abandoned by a reload. */
function checkCallsSettled(s: RealStack): void {
  const { ledger } = s;
  for (const c of s.calls)
    if (!c.settled && c.page.closedAt === undefined)
      ledger.violation('C8: a tools/call never settled');
}
