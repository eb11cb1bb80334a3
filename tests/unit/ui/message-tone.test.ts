/**
 * The gist's colour comes from what the message carries (its task status,
 * its resultType), read by the wire annotator, never from the gist's text.
 */
import { describe, expect, it } from 'vitest';
import type { WireEntry } from '../../../src/client/rpc-client.ts';
import { WireAnnotator } from '../../../src/client/wire-annotation.ts';
import { messageTone } from '../../../src/ui/message-tone.ts';

let seq = 0;
const entry = (direction: 'in' | 'out', message: unknown): WireEntry => ({
  seq: ++seq,
  at: 0,
  direction,
  message,
});

/** The tone of `answer` to a request for `method`, both through one annotator. */
function toneOfAnswer(method: string, params: Record<string, unknown>, answer: unknown): string {
  const annotator = new WireAnnotator();
  annotator.annotate(entry('out', { jsonrpc: '2.0', id: 1, method, params }));
  return messageTone(annotator.annotate(entry('in', answer)));
}

describe('messageTone', () => {
  it('T6, T7: a task handle and a tasks/get answer take the colour of the status they carry', () => {
    for (const status of ['working', 'input_required', 'completed', 'failed', 'cancelled']) {
      expect(
        toneOfAnswer(
          'tools/call',
          { name: 'slow_compute' },
          { jsonrpc: '2.0', id: 1, result: { resultType: 'task', taskId: 't', status } },
        ),
      ).toBe(status);
      expect(
        toneOfAnswer(
          'tasks/get',
          { taskId: 't' },
          { jsonrpc: '2.0', id: 1, result: { resultType: 'complete', taskId: 't', status } },
        ),
      ).toBe(status);
    }
  });

  it('T18: a pushed notifications/tasks takes the colour of its status', () => {
    const row = new WireAnnotator().annotate(
      entry('in', {
        jsonrpc: '2.0',
        method: 'notifications/tasks',
        params: { taskId: 't', status: 'failed' },
      }),
    );
    expect(messageTone(row)).toBe('failed');
  });

  it('T16: a tools/call answered input_required before any task exists is coloured input_required', () => {
    expect(
      toneOfAnswer(
        'tools/call',
        { name: 'test_tool_with_task' },
        { jsonrpc: '2.0', id: 1, result: { resultType: 'input_required', inputRequests: {} } },
      ),
    ).toBe('input_required');
  });

  it('T14, T17: an acknowledgement, a plain result, an error and a request carry no status: no colour', () => {
    const ack = { jsonrpc: '2.0', id: 1, result: { resultType: 'complete' } };
    expect(toneOfAnswer('tasks/update', { taskId: 't' }, ack)).toBe('none');
    expect(toneOfAnswer('tasks/cancel', { taskId: 't' }, ack)).toBe('none');
    expect(
      toneOfAnswer(
        'tools/call',
        { name: 'greet' },
        { jsonrpc: '2.0', id: 1, result: { resultType: 'complete', content: [], isError: true } },
      ),
    ).toBe('none');
    expect(
      toneOfAnswer(
        'tasks/get',
        { taskId: 't' },
        { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'completed or not, unknown' } },
      ),
    ).toBe('none');
    // A tool whose name reads like a status is still only a request: the text decides nothing.
    const request = new WireAnnotator().annotate(
      entry('out', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'completed' } }),
    );
    expect(request.gist).toBe('completed');
    expect(messageTone(request)).toBe('none');
  });

  it('a status that is not a task status gives no colour, whatever it says', () => {
    expect(
      toneOfAnswer(
        'tasks/get',
        { taskId: 't' },
        { jsonrpc: '2.0', id: 1, result: { taskId: 't', status: 'completed-ish' } },
      ),
    ).toBe('none');
  });
});
