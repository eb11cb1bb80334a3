/**
 * The header's Drop / Kill / Restart words: a short word shown, a full
 * accessible name that contains it (label in name), a tooltip that says
 * what it does; "the server" for one node; on a cluster, that they hit
 * every node, how many, and where to act on one.
 */
import { describe, expect, it } from 'vitest';
import { serverButtonWords } from '../../../src/ui/state/server-buttons.ts';

describe("the header's Drop / Kill / Restart words", () => {
  it('one node is the server; each button shows a short word its full name contains', () => {
    const words = serverButtonWords(1);
    expect(words.drop).toMatchObject({ short: 'Drop', name: 'Drop connection' });
    expect(words.kill).toMatchObject({ short: 'Kill', name: 'Kill server' });
    expect(words.restart).toMatchObject({ short: 'Restart', name: 'Restart server' });
    for (const button of [words.drop, words.kill, words.restart]) {
      expect(button.name.startsWith(button.short)).toBe(true);
      expect(button.title.startsWith(`${button.name}: `)).toBe(true);
    }
  });

  it('several nodes: the buttons say all nodes, the title how many and where to kill one', () => {
    const words = serverButtonWords(4);
    expect(words.kill).toMatchObject({ short: 'Kill all', name: 'Kill all nodes' });
    expect(words.restart).toMatchObject({ short: 'Restart all', name: 'Restart all nodes' });
    expect(words.kill.title).toMatch(/every one of the 4 cluster nodes at once/);
    expect(words.kill.title).toMatch(/the whole cluster stops/);
    expect(words.kill.title).toMatch(/beside it in the Cluster panel/);
    expect(words.restart.title).toMatch(/every one of the 4 cluster nodes/);
    for (const button of [words.kill, words.restart]) expect(button.name).toContain(button.short);
  });
});
