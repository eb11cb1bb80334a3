/**
 * The run file's cost: export (`serializeRunFile`) and import
 * (`parseRunFile`: JSON.parse and the zod schema) of a 3,000-message and a
 * 100,000-message run, each beside `JSON.parse` alone of the same text, the
 * floor any reader pays. In Node; the page runs the same code. `--small`
 * measures the 3,000-message run only.
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseRunFile, serializeRunFile, type RunFile } from '../../src/record/run-file.ts';
import type { RunEvent } from '../../src/record/run-events.ts';
import type { BenchContext, BenchPart } from './context.ts';
import { figure, percentile, type Figure } from './figures.ts';
import { measureSeek } from './replay-seek.ts';
import { sampleRun, SAMPLE_T0 } from './sample-run.ts';

const PART = 'run-file';
const T0 = SAMPLE_T0;

/** A run like a busy page's: polls and their answers, with network marks, and task steps. */
export function syntheticRun(messages: number): RunFile {
  const events: RunEvent[] = [];
  for (let i = 0; i < messages; i++) {
    const at = i * 25;
    const id = Math.floor(i / 2) + 1;
    const taskId = `task-${(id % 40).toString().padStart(4, '0')}-0000-4000-8000-000000000000`;
    const out = i % 2 === 0;
    events.push({
      at,
      kind: 'wire',
      entry: {
        seq: i + 1,
        at: T0 + at,
        direction: out ? 'out' : 'in',
        message: out
          ? {
              jsonrpc: '2.0',
              id,
              method: 'tasks/get',
              params: {
                taskId,
                _meta: { 'io.modelcontextprotocol/clientInfo': { name: 'page', version: '0.1.0' } },
              },
            }
          : {
              jsonrpc: '2.0',
              id,
              result: {
                taskId,
                status: 'working',
                statusMessage: `step ${i % 17} of 20`,
                createdAt: '2026-07-28T10:00:00.000Z',
                lastUpdatedAt: '2026-07-28T10:00:01.000Z',
                ttlMs: 60000,
                pollIntervalMs: 1000,
              },
            },
        net: {
          packet: i + 1,
          link: 1,
          direction: out ? 'out' : 'in',
          sentAt: T0 + at,
          deliveredAt: T0 + at + 12,
          delayMs: 12,
        },
      },
    });
    if (i % 10 === 9)
      events.push({
        at,
        kind: 'task-step',
        taskId,
        step: {
          index: i,
          at: T0 + at,
          eventType: 'poll.answered',
          event: 'poll.answered',
          value: { active: { lifecycle: 'waiting', inputs: 'idle' } },
          active: ['task.active.lifecycle.waiting', 'task.active.inputs.idle'],
          entered: ['task.active.lifecycle.waiting'],
          taken: ['task.active.lifecycle.polling|poll.answered|task.active.lifecycle.waiting|'],
          internal: [],
          serverStatus: 'working',
          cancelRequested: false,
          polls: i,
          pollIntervalMs: 1000,
          pendingInputs: 0,
        },
      });
  }
  return sampleRun(events);
}

/** The median of `rounds` timings of `work`, ms. */
function median(rounds: number, work: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** The replay of the same file in the page: its open, then jumps of the slider and a drag (`replay-seek.ts`). */
async function seekFigures(ctx: BenchContext, text: string, label: string): Promise<Figure[]> {
  const path = `${ctx.outDir}/run-file-seek.json`;
  writeFileSync(path, text);
  ctx.log(`${PART}: opening ${label} in the replay, then seeking`);
  const seek = await measureSeek(ctx, path, ctx.small ? 'small' : 'full');
  const open = { name: "the open's longest task", value: seek.openLongestTaskMs };
  const frame = { name: 'an idle frame', value: seek.idleFrameMs };
  return [
    figure(
      PART,
      `replay open, ${label}`,
      seek.openMs,
      'ms',
      undefined,
      'from the file picked to the slider drawn',
    ),
    figure(
      PART,
      `replay open: longest main-thread task, ${label}`,
      seek.openLongestTaskMs,
      'ms',
      frame,
    ),
    figure(
      PART,
      `replay seek (${seek.jumpSettleMs.length} jumps): longest main-thread task, ${label}`,
      Math.max(...seek.jumpLongestTaskMs),
      'ms',
      open,
      'a task while a jump settles, from a Chromium trace (RunTask); the goal is under 50 ms',
    ),
    figure(
      PART,
      `replay seek: p95 of each jump's longest task, ${label}`,
      percentile(seek.jumpLongestTaskMs, 95),
      'ms',
      open,
    ),
    figure(
      PART,
      `replay seek: p50 until the view is still, ${label}`,
      percentile(seek.jumpSettleMs, 50),
      'ms',
      frame,
      "from the slider's input to the last DOM change it caused (cards drawn over later frames included)",
    ),
    figure(
      PART,
      `replay seek: p95 until the view is still, ${label}`,
      percentile(seek.jumpSettleMs, 95),
      'ms',
      frame,
    ),
    figure(
      PART,
      `replay drag (an input every 4 ms): longest main-thread task, ${label}`,
      seek.dragLongestTaskMs,
      'ms',
      open,
    ),
    figure(PART, `replay drag: frame p95, ${label}`, seek.dragFrameP95Ms, 'ms', frame),
  ];
}

export const runFile: BenchPart = {
  name: PART,
  async run(ctx) {
    const figures: Figure[] = [];
    for (const messages of ctx.small ? [3000] : [3000, 100_000]) {
      const run = syntheticRun(messages);
      const text = serializeRunFile(run);
      const rounds = messages > 10_000 ? 3 : 9;
      ctx.log(`${PART}: ${messages} messages, ${(text.length / 1e6).toFixed(1)} MB`);
      const verdict = parseRunFile(text);
      if (!verdict.ok) throw new Error(`the synthetic run does not parse: ${verdict.error}`);
      const jsonOnly = median(rounds, () => JSON.parse(text));
      const exportMs = median(rounds, () => serializeRunFile(run));
      const importMs = median(rounds, () => parseRunFile(text));
      const label = `${messages.toLocaleString('en')} messages (${(text.length / 1e6).toFixed(1)} MB)`;
      const reference = { name: 'JSON.parse alone', value: jsonOnly };
      figures.push(
        figure(PART, `export, ${label}`, exportMs, 'ms', reference),
        figure(
          PART,
          `import (parse + schema), ${label}`,
          importMs,
          'ms',
          reference,
          'import includes JSON.parse; the ratio is what the schema check costs on top',
        ),
      );
      if (messages === (ctx.small ? 3000 : 100_000))
        figures.push(...(await seekFigures(ctx, text, label)));
    }
    return figures;
  },
};
