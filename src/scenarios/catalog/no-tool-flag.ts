import { probeAnswers, wireShows } from '../expect.ts';
import { declaresTasks, requestFor } from '../observation.ts';
import { defineScenario } from '../scenario.ts';
import { callAnswered, probesAnswered } from '../waits.ts';

/** Tool entries of a tools/list result. */
function toolsOf(result: Record<string, unknown>): Record<string, unknown>[] {
  const tools = result['tools'];
  return Array.isArray(tools)
    ? tools.filter((t): t is Record<string, unknown> => typeof t === 'object' && t !== null)
    : [];
}

/** The names of tools that carry any task flag: an `execution` field or a `taskSupport` anywhere. */
function flagged(result: Record<string, unknown>): string[] {
  return toolsOf(result)
    .filter(
      (tool) => Object.hasOwn(tool, 'execution') || JSON.stringify(tool).includes('taskSupport'),
    )
    .map((tool) => String(tool['name']));
}

const noFlags = (result: Record<string, unknown>) =>
  toolsOf(result).length > 0 && flagged(result).length === 0;
const sawFlags = (result: Record<string, unknown>) => {
  const names = flagged(result);
  return names.length === 0
    ? `${toolsOf(result).length} tools, none with execution or taskSupport`
    : `task flags on ${names.join(', ')}`;
};

export const noToolFlag = defineScenario({
  id: 'no-tool-flag',
  title: 'tools/list carries no task flag',
  summary:
    'There is no per-tool execution.taskSupport: tools/list looks the same with or without the extension, and the server decides per request.',
  specIds: ['M2', 'T2', 'T1'],
  steps: [
    {
      id: 'list',
      title: 'tools/list, with and without the extension',
      narration:
        'We ask tools/list twice, once declaring the extension and once not. Look for execution or taskSupport on any tool: the 2025-11-25 design had it; 2026-07-28 has none.',
      run: (stage) => {
        stage.probe('tools/list (declared)', 'tools/list', {}, { declare: true });
        stage.probe('tools/list (undeclared)', 'tools/list', {}, { declare: false });
      },
      until: probesAnswered('tools/list (declared)', 'tools/list (undeclared)'),
      expect: [
        probeAnswers(
          'declared-clean',
          'no tool carries execution or taskSupport when the extension is declared (M2, T2)',
          'tools/list (declared)',
          noFlags,
          sawFlags,
        ),
        probeAnswers(
          'undeclared-clean',
          'no tool carries execution or taskSupport without it either (M2)',
          'tools/list (undeclared)',
          noFlags,
          sawFlags,
        ),
      ],
    },
    {
      id: 'decides',
      title: 'Yet the same tool answers both ways',
      narration:
        'slow_compute, called twice: declaring the extension it comes back as a task; not declaring it, as an ordinary result. Nothing in tools/list said so: the request decides (T1, T2).',
      run: (stage) => {
        stage.callTool('slow_compute', { seconds: 1 }, true);
        stage.callTool('slow_compute', { seconds: 1 }, false);
      },
      until: {
        description: 'both calls answered',
        holds: (obs) =>
          callAnswered('slow_compute', true).holds(obs) &&
          callAnswered('slow_compute', false).holds(obs),
      },
      expect: [
        wireShows(
          'as-task',
          'a task handle to the declared call',
          { direction: 'in', method: 'tools/call', kind: 'result' },
          (row, obs) => {
            const request = requestFor(obs, row);
            return row.gist.startsWith('task') && request !== undefined && declaresTasks(request);
          },
        ),
        wireShows(
          'as-sync',
          'a synchronous result to the undeclared call',
          { direction: 'in', method: 'tools/call', kind: 'result' },
          (row, obs) => {
            const request = requestFor(obs, row);
            return row.gist === 'complete' && request !== undefined && !declaresTasks(request);
          },
        ),
      ],
    },
  ],
});
