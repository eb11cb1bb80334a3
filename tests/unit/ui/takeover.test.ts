import { describe, expect, it } from 'vitest';
import { nodeOfRunner, takeoverText } from '../../../src/ui/takeover.ts';

describe('take-over in words', () => {
  it('T12: names the node that carried the job on, the checkpoint, and the node that died', () => {
    expect(
      takeoverText({
        resumes: 1,
        takeover: { by: 'node 3/ab12cd34', from: 'node 1/ffee0011', checkpoint: '4 of 6 s' },
      }),
    ).toBe(
      'node 3 carried the job on from checkpoint 4 of 6 s after node 1 died (its lease ran out)',
    );
    expect(takeoverText({ resumes: 1, takeover: { by: 'node 2/a', from: 'node 5/b' } })).toContain(
      'node 2 carried the job on from the start',
    );
  });

  it('T12: says nothing for unnamed runners or a node that took its own job back', () => {
    expect(
      takeoverText({ resumes: 1, takeover: { by: 'runner-1', from: 'runner-2' } }),
    ).toBeUndefined();
    expect(
      takeoverText({ resumes: 1, takeover: { by: 'node 1/b', from: 'node 1/a' } }),
    ).toBeUndefined();
    expect(takeoverText({ resumes: 0 })).toBeUndefined();
    expect(nodeOfRunner('node 4/x')).toBe('node 4');
    expect(nodeOfRunner('node x/4')).toBeUndefined();
  });
});
