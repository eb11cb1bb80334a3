import { expectThat, taskEnds, taskIs, wireShows } from '../expect.ts';
import {
  paramsOf,
  resultOf,
  rowsWhere,
  taskOf,
  type Observation,
  type ScenarioWireRow,
} from '../observation.ts';
import { defineScenario } from '../scenario.ts';
import { taskFinished, taskReported } from '../waits.ts';

/** The inputRequests keys a tasks/get answer listed. */
function inputKeys(row: ScenarioWireRow): string[] {
  const requests = resultOf(row)?.['inputRequests'];
  return typeof requests === 'object' && requests !== null ? Object.keys(requests) : [];
}

/** The keys each tasks/update answered, in order. */
function updateKeys(obs: Observation, toolName: string): string[][] {
  const taskId = taskOf(obs, toolName)?.taskId;
  return rowsWhere(obs, { direction: 'out', method: 'tasks/update', taskId }).map((row) => {
    const responses = paramsOf(row)?.['inputResponses'];
    return typeof responses === 'object' && responses !== null ? Object.keys(responses) : [];
  });
}

const inputPolls = (obs: Observation, toolName: string): ScenarioWireRow[] =>
  rowsWhere(obs, {
    direction: 'in',
    method: 'tasks/get',
    taskId: taskOf(obs, toolName)?.taskId,
    gist: 'input_required',
  });

export const inputRequiredOnce = defineScenario({
  id: 'input-required-once',
  title: 'input_required, asked once',
  summary:
    'A task that needs an answer lists an elicitation under inputRequests; every poll repeats it, the client asks the user once, and one tasks/update answers it.',
  specIds: ['T14', 'T15', 'T9', 'C10', 'T22'],
  steps: [
    {
      id: 'ask',
      title: 'The task asks a question',
      narration:
        'confirm_delete needs a yes or no before it deletes report.txt. The task goes input_required, and tasks/get carries an elicitation/create request (form mode) under inputRequests.confirm.',
      run: (stage) => stage.callTool('confirm_delete', { filename: 'report.txt' }, true),
      until: taskReported('confirm_delete', 'input_required'),
      predict: {
        question: 'What status does the server report while it waits for the answer?',
        choices: ['input_required', 'working', 'completed'],
        actual: (obs) => taskOf(obs, 'confirm_delete')?.serverStatus ?? 'no task',
      },
      expect: [
        wireShows(
          'elicitation',
          'a tasks/get answer with inputRequests.confirm: an elicitation/create in form mode (T14, C10)',
          { direction: 'in', method: 'tasks/get', gist: 'input_required' },
          (row) => {
            const request = (
              resultOf(row)?.['inputRequests'] as
                Record<string, { method?: string; params?: { mode?: string } }> | undefined
            )?.['confirm'];
            return request?.method === 'elicitation/create' && request.params?.mode === 'form';
          },
        ),
      ],
    },
    {
      id: 'repeat',
      title: 'Every poll repeats it',
      narration:
        'The client keeps polling, and every answer lists the same request again: the server does not know it was seen. The client deduplicates by key: one question on screen.',
      until: {
        description: 'three polls that say input_required',
        holds: (obs) => inputPolls(obs, 'confirm_delete').length >= 3,
      },
      expect: [
        expectThat(
          'repeated',
          'at least 3 tasks/get answers list the same key, confirm (T14)',
          (obs) => {
            const polls = inputPolls(obs, 'confirm_delete');
            const same = polls.filter((row) => inputKeys(row).join() === 'confirm');
            return {
              pass: same.length >= 3,
              saw: `${same.length} of ${polls.length} input_required answers list exactly [confirm]`,
            };
          },
        ),
        taskIs(
          'asked-once',
          'the client shows one pending question, confirm, not one per poll (T14)',
          'confirm_delete',
          (task) => task.pendingInputKeys.join() === 'confirm',
          (task) => `pending [${task.pendingInputKeys.join(', ')}]`,
        ),
      ],
    },
    {
      id: 'answer',
      title: 'Answer once',
      narration:
        'The learner accepts: {confirm: true}. One tasks/update carries it; the ack is an empty result. The task goes back to working and completes.',
      run: (stage, { obs }) => {
        const taskId = taskOf(obs, 'confirm_delete')?.taskId ?? '';
        stage.answer(taskId, 'confirm', { action: 'accept', content: { confirm: true } });
      },
      until: taskFinished('confirm_delete'),
      expect: [
        expectThat('one-update', 'exactly one tasks/update, answering confirm (T15)', (obs) => {
          const updates = updateKeys(obs, 'confirm_delete');
          return {
            pass: updates.length === 1 && updates[0]?.join() === 'confirm',
            saw: `${updates.length} tasks/update: ${updates.map((keys) => `[${keys.join(', ')}]`).join(' ') || 'none'}`,
          };
        }),
        taskEnds('completed', 'confirm_delete', 'completed'),
        taskIs(
          'deleted',
          'the result says "Deleted report.txt"',
          'confirm_delete',
          (task) => JSON.stringify(task.result ?? null).includes('Deleted report.txt'),
          (task) => `result ${JSON.stringify(task.result ?? null).slice(0, 100)}`,
        ),
      ],
    },
  ],
});

export const partialAnswers = defineScenario({
  id: 'partial-answers',
  title: 'Partial answers, two pending inputs',
  summary:
    'With two questions outstanding, answering one leaves the task input_required with only the other listed, until it too is answered.',
  specIds: ['T15', 'T14', 'T9'],
  steps: [
    {
      id: 'ask',
      title: 'Two questions at once',
      narration:
        'multi_input asks for a name and a favourite colour in the same inputRequests: keys name and color.',
      run: (stage) => stage.callTool('multi_input', {}, true),
      until: {
        description: 'both questions shown',
        holds: (obs) => taskOf(obs, 'multi_input')?.pendingInputKeys.length === 2,
      },
      expect: [
        wireShows(
          'both',
          'a tasks/get answer lists both keys, name and color (T14)',
          { direction: 'in', method: 'tasks/get', gist: 'input_required' },
          (row) => inputKeys(row).sort().join() === 'color,name',
        ),
      ],
    },
    {
      id: 'one',
      title: 'Answer only the name',
      narration:
        'One tasks/update with just {name}. A partial set is allowed: the server takes it, and the task stays input_required, now listing only color.',
      run: (stage, { obs }) =>
        stage.answer(taskOf(obs, 'multi_input')?.taskId ?? '', 'name', {
          action: 'accept',
          content: { name: 'Ada' },
        }),
      until: {
        description: 'a poll after the update that lists only color',
        holds: (obs) => {
          const update = rowsWhere(obs, { direction: 'out', method: 'tasks/update' }).at(0);
          return (
            update !== undefined &&
            inputPolls(obs, 'multi_input').some(
              (row) => row.at > update.at && inputKeys(row).join() === 'color',
            )
          );
        },
      },
      predict: {
        question: 'After answering only name, the task is...',
        choices: ['input_required', 'working', 'completed'],
        actual: (obs) => taskOf(obs, 'multi_input')?.serverStatus ?? 'no task',
      },
      expect: [
        expectThat('partial-update', 'the first tasks/update answers name only (T15)', (obs) => {
          const first = updateKeys(obs, 'multi_input')[0];
          return {
            pass: first?.join() === 'name',
            saw: first ? `[${first.join(', ')}]` : 'no tasks/update',
          };
        }),
        taskIs(
          'still-waiting',
          'the task is still input_required, asking for color only (T15)',
          'multi_input',
          (task) =>
            task.serverStatus === 'input_required' && task.pendingInputKeys.join() === 'color',
          (task) => `${task.serverStatus}, pending [${task.pendingInputKeys.join(', ')}]`,
        ),
      ],
    },
    {
      id: 'other',
      title: 'Answer the colour',
      narration:
        'The second tasks/update answers color. All keys are in: the task goes back to working and completes with both answers.',
      run: (stage, { obs }) =>
        stage.answer(taskOf(obs, 'multi_input')?.taskId ?? '', 'color', {
          action: 'accept',
          content: { color: 'teal' },
        }),
      until: taskFinished('multi_input'),
      expect: [
        taskEnds('completed', 'multi_input', 'completed'),
        taskIs(
          'both-answers',
          'the result has both answers: name=Ada, color=teal',
          'multi_input',
          (task) => JSON.stringify(task.result ?? null).includes('name=Ada, color=teal'),
          (task) => `result ${JSON.stringify(task.result ?? null).slice(0, 100)}`,
        ),
      ],
    },
  ],
});
