/**
 * Opening a run file: a recorded run serialised as the recorder writes it
 * opens into the state the page showed (wire, faults, each task's status,
 * x-ray and step), and bad input (not JSON, cut short, a newer version, a
 * hand-edited field, an address that answers 404 or nothing at all) gets
 * one message naming what is wrong.
 */
import { describe, expect, it } from 'vitest';
import { parseRunFile, serializeRunFile } from '../../../src/record/run-file.ts';
import { loadRunText, loadRunUrl, type LoadProgress } from '../../../src/replay/run-loader.ts';
import { cancelRaceRun } from './run-fixture.ts';

const inThread = (text: string) => Promise.resolve(parseRunFile(text));

async function load(text: string) {
  const progress: LoadProgress[] = [];
  const result = await loadRunText(text, (p) => progress.push(p), inThread);
  return { result, progress };
}

describe('loadRunText', () => {
  it('a run as the recorder writes it opens at the state the page showed at each moment', async () => {
    const { result, progress } = await load(serializeRunFile(cancelRaceRun()));
    if (!result.ok) throw new Error(result.error);
    const { index } = result;
    const atDrop = index.momentAt(1001);
    expect(index.wireAt(atDrop).map((row) => row.method)).toEqual([
      'tools/call',
      'tools/call',
      'tasks/get',
    ]);
    expect(index.wireAt(atDrop)[2]?.net?.lost).toBe('link-dropped');
    expect(index.faultsAt(atDrop).map((notice) => notice.kind)).toEqual(['drop']);
    expect(index.tasksAt(atDrop)).toMatchObject([
      {
        taskId: 't1',
        toolName: 'slow_compute',
        clientSaw: 'working',
        stored: { status: 'working' },
      },
    ]);
    expect(index.tasksAt(index.momentAt(3000))[0]).toMatchObject({ clientSaw: 'completed' });
    expect(progress[0]?.stage).toBe('checking');
    expect(progress[progress.length - 1]).toEqual({ stage: 'indexing', fraction: 1 });
  });

  it('refuses text that is not JSON, or JSON cut short, saying so', async () => {
    const text = serializeRunFile(cancelRaceRun());
    for (const bad of ['<html>Not found</html>', text.slice(0, text.length / 2), '']) {
      const { result } = await load(bad);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatch(/^not JSON/);
    }
  });

  it('refuses a run from a newer app, and a hand-edited field, naming it', async () => {
    const newer = { ...cancelRaceRun(), version: 2 };
    const { result: refused } = await load(JSON.stringify(newer));
    expect(refused).toEqual({ ok: false, error: expect.stringMatching(/made by a newer app/) });
    const edited = JSON.parse(serializeRunFile(cancelRaceRun()));
    edited.events[2].entry.seq = 'three';
    const { result: wrong } = await load(JSON.stringify(edited));
    expect(wrong).toEqual({ ok: false, error: expect.stringMatching(/^events\[2\]\.entry\.seq/) });
  });
});

describe('loadRunUrl', () => {
  const base = 'http://127.0.0.1:4417/';

  it('a ?run= that answers 404 names the address and the status', async () => {
    const fetcher = () =>
      Promise.resolve(new Response('nope', { status: 404, statusText: 'Not Found' }));
    const result = await loadRunUrl('runs/missing.json', base, () => {}, fetcher);
    expect(result).toEqual({
      ok: false,
      error: 'http://127.0.0.1:4417/runs/missing.json answered HTTP 404 Not Found, not a run file',
    });
  });

  it('a ?run= that nothing answers (or CORS hides) says so and what the server must send', async () => {
    const fetcher = () => Promise.reject(new TypeError('Failed to fetch'));
    const result = await loadRunUrl('https://elsewhere.example/run.json', base, () => {}, fetcher);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error).toMatch(/could not be fetched.*CORS.*Access-Control-Allow-Origin/);
  });

  it('a ?run= that answers a web page says so', async () => {
    const page = new Response('<!doctype html>', { headers: { 'content-type': 'text/html' } });
    const result = await loadRunUrl(
      'runs/typo.json',
      base,
      () => {},
      () => Promise.resolve(page),
    );
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error).toMatch(/answered a web page \(text\/html\), not a run file/);
  });

  it('a ?run= that answers text that is no run is not JSON', async () => {
    const fetcher = () =>
      Promise.resolve(new Response('<!doctype html><p>hi</p>', { status: 200 }));
    const result = await loadRunUrl('runs/page', base, () => {}, fetcher);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/^not JSON/);
  });
});
