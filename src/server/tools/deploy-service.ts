import { z } from 'zod';
import { ElicitResultSchema } from '../../protocol/elicitation.ts';
import { defineTool, textResult } from '../tool.ts';

/** The checkpoint: the canary is staged, and how many of the 10 hosts are live. */
const Progress = z.object({ hostsLive: z.number().int().min(1).max(10) });

/**
 * A deployment that stops half-way for a human approval, then acts on
 * approve or decline (T14, T22). Checkpoints after staging and after each
 * batch of hosts; a resumed run gets the approval back from the task
 * instead of asking again.
 */
export const deployService = defineTool({
  name: 'deploy_service',
  title: 'Deploy a service',
  description:
    'Builds and stages a release, then pauses (input_required) for an approval before going live. Declining rolls back.',
  args: z.object({
    service: z.string().default('checkout').describe('Service to deploy'),
    environment: z
      .enum(['staging', 'production'])
      .default('production')
      .describe('Where to deploy'),
  }),
  execution: 'task-required',
  pollIntervalMs: 500,
  resumable: true,
  run: async ({ args, report, sleep, askInput, checkpoint, resumeFrom }) => {
    const save = (progress: z.infer<typeof Progress>, label: string): Promise<void> =>
      checkpoint(progress, label);
    const resumed = Progress.safeParse(resumeFrom);
    if (!resumed.success) {
      await report(`building ${args.service}`);
      await sleep(800);
      await save({ hostsLive: 1 }, `built ${args.service}; canary live on 1 of 10 hosts`);
    }
    await report(
      `staged ${args.service} on 1 of 10 ${args.environment} hosts; waiting for approval`,
    );
    const answers = await askInput({
      approve_rollout: {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: `Canary of ${args.service} is healthy on 1 of 10 ${args.environment} hosts. Roll out to the rest?`,
          requestedSchema: {
            type: 'object',
            properties: {
              approve: { type: 'boolean', title: 'Approve roll-out', default: false },
              note: {
                type: 'string',
                title: 'Change note',
                description: 'Recorded in the deploy log',
              },
            },
            required: ['approve'],
          },
        },
      },
    });
    const answer = ElicitResultSchema.safeParse(answers['approve_rollout']);
    const approved =
      answer.success &&
      answer.data.action === 'accept' &&
      answer.data.content?.['approve'] === true;
    if (!approved) {
      // Say which answer stopped it: an accepted form with the box unticked reads like a yes otherwise.
      const why = !answer.success
        ? 'the answer could not be read'
        : {
            accept: '"Approve roll-out" was left unticked in the accepted form',
            decline: 'the approval was declined',
            cancel: 'the approval was dismissed (cancel)',
          }[answer.data.action];
      await report('rolling back the canary');
      await sleep(500);
      return textResult(
        `Roll-out of ${args.service} to ${args.environment} not approved (${why}); canary rolled back.`,
      );
    }
    for (let live = resumed.success ? resumed.data.hostsLive : 1; live < 10;) {
      live = Math.min(live + 4, 10);
      await report(`rolling out: ${live} of 10 hosts`);
      await sleep(400);
      await save({ hostsLive: live }, `${live} of 10 hosts live`);
    }
    const note = answer.success ? answer.data.content?.['note'] : undefined;
    return textResult(
      `Deployed ${args.service} to all 10 ${args.environment} hosts.${note ? ` Note: ${String(note)}` : ''}`,
    );
  },
});
