/**
 * The header's Kill / Restart words: "the server" for one node; on a
 * cluster, that they hit every node, how many, and where to act on one.
 */
import { describe, expect, it } from 'vitest';
import { serverButtonWords } from '../../../src/ui/state/server-buttons.ts';

describe("the header's Kill / Restart words", () => {
  it('one node is the server', () => {
    expect(serverButtonWords(1)).toMatchObject({ kill: 'Kill server', restart: 'Restart server' });
  });

  it('several nodes: the buttons say all nodes, the title how many and where to kill one', () => {
    const words = serverButtonWords(4);
    expect(words).toMatchObject({ kill: 'Kill all nodes', restart: 'Restart all nodes' });
    expect(words.killTitle).toMatch(/every one of the 4 cluster nodes at once/);
    expect(words.killTitle).toMatch(/the whole cluster stops/);
    expect(words.killTitle).toMatch(/beside it in the Cluster panel/);
    expect(words.restartTitle).toMatch(/every one of the 4 cluster nodes/);
  });
});
