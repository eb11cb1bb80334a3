/**
 * The grader's tools: scripted tasks, each doing one thing a client must
 * survive. Every one is a task only (`-32021` without the extension, T3),
 * and runs on the playground server's own job runner.
 */
import { z } from 'zod';
import { ErrorCode } from '../protocol/constants.ts';
import { ElicitResultSchema } from '../protocol/elicitation.ts';
import {
  defineTool,
  JobProtocolError,
  textQuestion,
  textResult,
  type JobContext,
  type ToolDefinition,
} from '../server/tool.ts';
import { GraderTool } from './tool-names.ts';

/** The first interval, and the one it changes to mid-task. */
export const POLL_INTERVALS_MS = { first: 250, then: 1500 } as const;

/** The TTL tool's life: deleted the moment its TTL passes. */
export const TTL_MS = 3000;

const NO_ARGS = z.object({});
type Job = (ctx: JobContext<z.infer<typeof NO_ARGS>>) => ReturnType<ToolDefinition['run']>;

/** What every grader tool is unless its row says otherwise: a task only, no arguments, polled every 500 ms. */
function graderTask(
  row: Omit<ToolDefinition<typeof NO_ARGS>, 'execution' | 'args' | 'run'> & { run: Job },
): ToolDefinition {
  return defineTool({ args: NO_ARGS, execution: 'task-required', pollIntervalMs: 500, ...row });
}

const shiftPollInterval: Job = async ({ report, sleep, suggestPollInterval }) => {
  await report(`polling every ${POLL_INTERVALS_MS.first} ms, for now`);
  await sleep(1500);
  await suggestPollInterval(POLL_INTERVALS_MS.then);
  await report(`polling every ${POLL_INTERVALS_MS.then} ms from now on`);
  await sleep(4500);
  return textResult('Done: the interval changed once, from 250 ms to 1500 ms');
};

const askTwoKeys: Job = async ({ askInput }) => {
  const answers = await askInput({
    first: textQuestion('First question: any word', 'first'),
    second: textQuestion('Second question: any other word', 'second'),
  });
  const said = (key: string): string => {
    const parsed = ElicitResultSchema.safeParse(answers[key]);
    return parsed.success ? parsed.data.action : 'invalid';
  };
  return textResult(`first: ${said('first')}, second: ${said('second')}`);
};

const failOnPurpose: Job = async ({ sleep }) => {
  await sleep(1500);
  throw new JobProtocolError(
    ErrorCode.InternalError,
    'Internal error: the grader failed this task on purpose',
  );
};

const completeDespiteCancel: Job = async ({ report, sleepThroughCancel, signal }) => {
  for (let i = 1; i <= 8; i++) {
    await report(
      `step ${i} of 8${signal.aborted ? ' (cancel requested: finishing anyway)' : ': cancel me'}`,
    );
    await sleepThroughCancel(1000);
  }
  return textResult(
    signal.aborted
      ? 'Completed although a cancel was requested'
      : 'Completed; it was never cancelled',
  );
};

const outliveTtl: Job = async ({ report, sleep }) => {
  await report(`this task is deleted ${TTL_MS / 1000} s after it was created`);
  await sleep(60_000);
  return textResult('Never seen: the TTL passed first');
};

/** The restart tool's checkpoint: seconds done. */
const Progress = z.object({ secondsDone: z.number().int().min(0) });

/** The one grader tool with an argument, so not a `graderTask` row. */
const restartClient = defineTool({
  name: GraderTool.restart,
  title: 'Grader: restart your client',
  description:
    'A long task (`seconds`, 20 by default). Restart your client while it runs: it must resume polling the same taskId, not call this tool again (T12).',
  args: z.object({
    seconds: z.number().int().min(2).max(600).default(20).describe('How long it runs, in seconds'),
  }),
  execution: 'task-required',
  pollIntervalMs: 1000,
  resumable: true,
  run: async ({ args, report, sleep, checkpoint, resumeFrom }) => {
    const resumed = Progress.safeParse(resumeFrom);
    for (let s = resumed.success ? resumed.data.secondsDone : 0; s < args.seconds; s++) {
      await report(`restart your client now: ${args.seconds - s} s left`);
      await sleep(1000);
      await checkpoint(
        { secondsDone: s + 1 } satisfies z.infer<typeof Progress>,
        `${s + 1} s done`,
      );
    }
    return textResult(`Ran ${args.seconds} s`);
  },
});

/** Every grader tool, in the order a client is asked to try them: one row each. */
export const GRADER_TOOLS: readonly ToolDefinition[] = [
  graderTask({
    name: GraderTool.pollInterval,
    title: 'Grader: pollIntervalMs changes mid-task',
    description: `Suggests a poll every ${POLL_INTERVALS_MS.first} ms for 1.5 s, then every ${POLL_INTERVALS_MS.then} ms until it completes after about 6 s. A client must keep to the interval of the latest report (T6, T12).`,
    pollIntervalMs: POLL_INTERVALS_MS.first,
    run: shiftPollInterval,
  }),
  graderTask({
    name: GraderTool.twoInputs,
    title: 'Grader: two input keys',
    description:
      'Asks two questions at once (keys "first" and "second"). Answer them one at a time: the task stays input_required until both are in, every poll repeats what is outstanding, and each key must be answered once (T14, T15).',
    run: askTwoKeys,
  }),
  graderTask({
    name: GraderTool.failed,
    title: 'Grader: a failed task',
    description:
      'Works for 1.5 s, then ends failed with a JSON-RPC error (T10, T11). The client must stop polling it.',
    run: failOnPurpose,
  }),
  graderTask({
    name: GraderTool.cancel,
    title: 'Grader: a cancel that ends completed',
    description:
      'Runs for about 8 s. Cancel it with tasks/cancel: the ack comes at once, yet the task ends completed (T17). notifications/cancelled is never the way to cancel a task.',
    run: completeDespiteCancel,
  }),
  graderTask({
    name: GraderTool.ttl,
    title: 'Grader: a TTL that expires',
    description: `A task with ttlMs ${TTL_MS} whose job takes longer: when the TTL passes the task is deleted, and the next poll gets -32602 (T13). The client must take that as the end, not retry.`,
    ttlMs: TTL_MS,
    purgeAfterMs: 0,
    run: outliveTtl,
  }),
  restartClient,
];
