import { taskIs } from '../expect.ts';
import { createdOn } from '../observation.ts';
import { defineScenario } from '../scenario.ts';
import { checkpointSaved, killSurvived } from '../steps.ts';

/** `node 3` from a runner id `node 3/ab12cd34`. */
const nodeName = (runner: string | undefined): string | undefined =>
  /^node \d+(?=\/)/.exec(runner ?? '')?.[0];

export const clusterTakeover = defineScenario({
  id: 'cluster-takeover',
  title: 'Cluster: a node dies, another takes the job over',
  summary:
    'Three nodes on one shared store. The node running a job is killed; its lease runs out, another node claims it and carries the job on from its last checkpoint. The task completes, run once.',
  specIds: ['T19', 'T12', 'T8'],
  setup: { store: 'indexeddb', cluster: { nodes: 3, policy: 'round-robin' } },
  steps: [
    {
      id: 'start',
      title: 'Start a job',
      narration:
        'slow_compute (6 s), on whichever node the balancer picks. That node runs the job under a lease it renews every second, and saves a checkpoint after every second of work.',
      run: (stage) => stage.callTool('slow_compute', { seconds: 6 }, true),
      until: checkpointSaved('slow_compute', 6),
    },
    killSurvived({
      title: 'Kill the node running it',
      narration:
        'The node that created the task (and runs its job) dies mid-job. Polls go on to the other nodes, which read the task from the store. Once the lease runs out, one of them claims it and resumes the job.',
      toolName: 'slow_compute',
      kill: (stage, { obs }) => stage.killNode(createdOn(obs, 'slow_compute') ?? 1),
      because: 'the task lives in the store, not in the node',
      expect: [
        taskIs(
          'taken-over',
          'another node took the job over from the killed one, from a checkpoint, once (T12)',
          'slow_compute',
          (task, obs) => {
            const killed = `node ${createdOn(obs, 'slow_compute') ?? '?'}`;
            const by = nodeName(task.takeover?.by);
            return (
              task.resumes === 1 &&
              nodeName(task.takeover?.from) === killed &&
              by !== undefined &&
              by !== killed &&
              task.takeover?.checkpoint !== undefined
            );
          },
          (task) =>
            task.takeover
              ? `resumes ${task.resumes}: ${nodeName(task.takeover.by) ?? task.takeover.by} from ${nodeName(task.takeover.from) ?? task.takeover.from ?? 'nobody'}, checkpoint ${task.takeover.checkpoint ?? 'none'}`
              : `resumes ${task.resumes}, no take-over`,
        ),
      ],
    }),
  ],
});
