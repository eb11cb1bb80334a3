/**
 * The header's words about the link, derived from the client's and the
 * server's state now: after a restart, the reason the last reconnect
 * attempt failed is not shown as if still true while the client waits out
 * its backoff.
 */
import { describe, expect, it } from 'vitest';
import { linkWords, type LinkFacts } from '../../../src/ui/state/link-words.ts';

const backingOff: LinkFacts = {
  state: 'reconnecting',
  info: { attempt: 6, retryAt: 10_000, reason: 'the server is not running' },
  remote: undefined,
  identity: 'learner',
  serverRunning: false,
  serverGeneration: 1,
  offline: false,
};

describe('linkWords', () => {
  it('C8: while the server is down, the header says why the last attempt failed', () => {
    expect(linkWords(backingOff)).toMatchObject({
      label: 'Reconnecting…',
      detail: 'the server is not running',
    });
  });

  it('C8: once a restarted server runs, the failed attempt is history: the client waits out its backoff', () => {
    const words = linkWords({ ...backingOff, serverRunning: true, serverGeneration: 2 });
    expect(words.label).toBe('Reconnecting…');
    expect(words.detail).toBe('server up; retry after backoff');
    expect(words.detail).not.toContain('not running');
    expect(words.detailTitle).toContain('last attempt failed (the server is not running)');
  });

  it('says nothing more when connected, offline (said apart), or with no reason yet', () => {
    expect(linkWords({ ...backingOff, state: 'open', serverRunning: true })).toEqual({
      label: 'Connected as learner',
      dot: 'open',
      detail: undefined,
      detailTitle: undefined,
    });
    expect(linkWords({ ...backingOff, offline: true }).detail).toBeUndefined();
    expect(linkWords({ ...backingOff, info: { attempt: 1 } }).detail).toBeUndefined();
    expect(linkWords({ ...backingOff, state: 'connecting' }).label).toBe('Connecting…');
  });

  it("a remote server's state is unknown to the page: its reason stays as the client heard it", () => {
    const words = linkWords({
      ...backingOff,
      remote: 'http://127.0.0.1:3939/mcp',
      serverRunning: true,
      info: { attempt: 2, retryAt: 1, reason: 'HTTP 502' },
    });
    expect(words.detail).toBe('HTTP 502');
    expect(
      linkWords({ ...backingOff, remote: 'http://127.0.0.1:3939/mcp', state: 'open' }).label,
    ).toBe('Connected to 127.0.0.1:3939');
  });

  it('C8: a kill with no request in flight leaves the client connected as far as it knows: the words say the server is stopped', () => {
    const killed = linkWords({
      ...backingOff,
      state: 'open',
      info: { attempt: 0 },
      serverRunning: false,
    });
    expect(killed.label).toBe('Server stopped');
    expect(killed.label).not.toContain('Connected');
    expect(killed.dot).toBe('closed');
    expect(killed.detail).toBe('client not told yet');
    expect(killed.detailTitle).toMatch(/next request fails/);
    // Once restarted (or with a remote server, whose state the page cannot know), connected again.
    expect(
      linkWords({ ...backingOff, state: 'open', serverRunning: true, serverGeneration: 2 }).label,
    ).toBe('Connected as learner');
    expect(
      linkWords({
        ...backingOff,
        state: 'open',
        serverRunning: false,
        remote: 'http://127.0.0.1:3939/mcp',
      }).label,
    ).toBe('Connected to 127.0.0.1:3939');
  });
});
