import { expectThat, taskEnds, wireShows } from '../expect.ts';
import {
  declaresTasks,
  describeRow,
  paramsOf,
  rowsWhere,
  taskOf,
  type Observation,
  type ScenarioWireRow,
} from '../observation.ts';
import { defineScenario } from '../scenario.ts';
import { callAnswered, taskFinished } from '../waits.ts';

/** How long the synchronous slow_compute works, in seconds. */
const syncSeconds = (fast: boolean): number => (fast ? 1.5 : 4);

/** The undeclared tools/call requests of slow_compute, oldest first. */
const syncCalls = (obs: Observation): ScenarioWireRow[] =>
  rowsWhere(obs, {
    direction: 'out',
    kind: 'request',
    method: 'tools/call',
    gist: 'slow_compute',
  }).filter((row) => !declaresTasks(row));

/** The re-issued copy of the synchronous call, if there is one. */
const reissuedCall = (obs: Observation): ScenarioWireRow | undefined =>
  syncCalls(obs).find((row) => row.reissueOf !== undefined);

/** The synchronous call's answer: a tools/call result with resultType complete. */
const syncAnswer = (obs: Observation): ScenarioWireRow | undefined =>
  rowsWhere(obs, { direction: 'in', method: 'tools/call', kind: 'result' }).find(
    (row) => row.resultType === 'complete' && row.id === reissuedCall(obs)?.id,
  );

/** The poll answers of the task that the network lost. */
const lostPolls = (obs: Observation): ScenarioWireRow[] =>
  rowsWhere(obs, { direction: 'in', method: 'tasks/get' }).filter(
    (row) => row.net?.lost !== undefined && row.taskId === taskOf(obs, 'slow_compute')?.taskId,
  );

export const lostRequest = defineScenario({
  id: 'lost-request',
  title: 'A lost request against a lost poll',
  summary:
    'With no sessions and no resumable streams, a request lost in flight is sent again under a new id: a synchronous tools/call runs its tool again from the start, while a lost poll of a task is just another tasks/get with the same taskId.',
  specIds: ['C8', 'C1', 'C2', 'T12'],
  steps: [
    {
      id: 'sync-lost',
      title: 'A synchronous call, cut off mid-flight',
      narration:
        'slow_compute without the extension: an ordinary request, held open while the tool works. Once the server has it, the link is dropped. 2026-07-28 has no sessions (no Mcp-Session-Id) and no stream resumability (no Last-Event-ID): nothing can pick the answer up where it was, so the client re-issues the call under a new JSON-RPC id, and the tool starts again.',
      run: async (stage, { waitFor, fast }) => {
        stage.callTool('slow_compute', { seconds: syncSeconds(fast), label: 'sync' }, false);
        await waitFor({
          description: 'the tools/call to reach the server',
          holds: (obs) => syncCalls(obs).some((row) => row.net?.deliveredAt !== undefined),
        });
        stage.dropConnection();
      },
      until: callAnswered('slow_compute', false),
      timeoutMs: 30_000,
      expect: [
        wireShows(
          'reissued',
          'the tools/call is re-issued under a new JSON-RPC id after the link broke (C8)',
          { direction: 'out', kind: 'request', method: 'tools/call', gist: 'slow_compute' },
          (row) => row.reissueOf !== undefined && row.reissueOf !== row.id,
        ),
        expectThat(
          'whole-request',
          'the re-issue is a whole new request: its own _meta with the protocol version, the same name and arguments (C2, C1)',
          (obs) => {
            const [first] = syncCalls(obs);
            const again = reissuedCall(obs);
            const meta = again ? paramsOf(again)?.['_meta'] : undefined;
            const version =
              typeof meta === 'object' && meta !== null
                ? (meta as Record<string, unknown>)['io.modelcontextprotocol/protocolVersion']
                : undefined;
            const same =
              first !== undefined &&
              again !== undefined &&
              JSON.stringify(paramsOf(first)?.['arguments']) ===
                JSON.stringify(paramsOf(again)?.['arguments']);
            return {
              pass: same && version === '2026-07-28',
              saw: again
                ? `re-issued as id ${String(again.id)}, protocolVersion ${String(version)}, ${same ? 'same' : 'other'} arguments`
                : 'no re-issued tools/call',
            };
          },
        ),
        expectThat(
          'ran-again',
          'the tool ran again from the start: its answer came the whole run time after the re-issue (C8)',
          (obs) => {
            const again = reissuedCall(obs);
            const answer = syncAnswer(obs);
            const took = again && answer ? answer.at - again.at : undefined;
            const args = again ? paramsOf(again)?.['arguments'] : undefined;
            const seconds =
              typeof args === 'object' && args !== null
                ? Number((args as Record<string, unknown>)['seconds'])
                : NaN;
            // Each run of slow_compute sleeps its full time; a little slack for the clock's grain.
            const full = seconds * 1000 - 100;
            return {
              pass: took !== undefined && took >= full,
              saw:
                took === undefined
                  ? 'no answer to the re-issued call'
                  : `answered ${took} ms after the re-issue`,
            };
          },
        ),
      ],
    },
    {
      id: 'poll-lost',
      title: 'A task whose poll is lost',
      narration:
        'The same work as a task, with a fault scheduled: "when a tasks/get result arrives, lose that message". The client hears nothing back, and after its request timeout it polls again: a new JSON-RPC id, the same taskId. The work on the server went on all along, and nothing is done twice.',
      run: (stage, { fast }) => {
        stage.arm('poll-answered', { kind: 'lose' });
        stage.callTool('slow_compute', { seconds: fast ? 3 : 8, label: 'task' }, true);
      },
      until: taskFinished('slow_compute'),
      timeoutMs: 30_000,
      expect: [
        expectThat('poll-lost', 'a tasks/get answer was lost in the network', (obs) => {
          const lost = lostPolls(obs);
          return {
            pass: lost.length > 0,
            saw: lost[0] ? `lost: ${describeRow(lost[0])}` : 'no tasks/get answer lost',
          };
        }),
        wireShows(
          'polled-again',
          'the poll is sent again under a new id, with the same taskId (C8, T12)',
          { direction: 'out', kind: 'request', method: 'tasks/get' },
          (row, obs) =>
            row.reissueOf !== undefined &&
            row.reissueOf !== row.id &&
            row.taskId === taskOf(obs, 'slow_compute')?.taskId,
        ),
        expectThat(
          'once',
          'one tools/call made the task: a lost poll repeats no work (C8)',
          (obs) => {
            const declared = rowsWhere(obs, {
              direction: 'out',
              kind: 'request',
              method: 'tools/call',
              gist: 'slow_compute',
            }).filter((row) => !syncCalls(obs).includes(row));
            const tasks = obs.tasks.filter((t) => t.toolName === 'slow_compute');
            return {
              pass: declared.length === 1 && tasks.length === 1,
              saw: `${declared.length} tools/call declaring the extension, ${tasks.length} tasks`,
            };
          },
        ),
        taskEnds('done', 'slow_compute', 'completed'),
      ],
    },
  ],
});
