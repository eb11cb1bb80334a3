/**
 * `npm run cluster` as a whole: a run killed with SIGKILL leaves its node and
 * its PostgreSQL server running; the next run stops them and removes the
 * killed run's directory; SIGTERM (as Ctrl-C's SIGINT) stops everything a
 * run started and removes its lock file and directory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive, LOCAL_PG_ROOT } from '../../scripts/local-postgres.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'cluster-command-test-'));
const LOCK = join(scratch, 'cluster.json');
const started: ChildProcess[] = [];

afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

interface Run {
  child: ChildProcess;
  output: () => string;
  nodePid: number;
  /** The run's PostgreSQL directory, found by its owner file. */
  pgDir: string;
  postgresPid: number;
}

/** Starts `npm run cluster -- --nodes 1 --port 0` (as one process) and waits until it serves. */
async function startRun(): Promise<Run> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/cluster.ts', '--nodes', '1', '--port', '0'],
    { cwd: ROOT, env: { ...process.env, MCP_TASKS_CLUSTER_LOCK: LOCK }, stdio: 'pipe' },
  );
  started.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  await expect
    .poll(() => output.includes('MCP endpoint') || child.exitCode !== null, {
      timeout: 60_000,
      interval: 100,
    })
    .toBe(true);
  expect(child.exitCode, output).toBeNull();
  const nodePid = Number(/node-1 {2}\S+ {2}\(pid (\d+)\)/.exec(output)?.[1]);
  const pgDir = readdirSync(LOCAL_PG_ROOT)
    .map((name) => join(LOCAL_PG_ROOT, name))
    .find((dir) => {
      try {
        return JSON.parse(readFileSync(join(dir, 'owner.json'), 'utf8')).pid === child.pid;
      } catch {
        return false;
      }
    });
  expect(pgDir, output).toBeDefined();
  const postgresPid = Number(
    readFileSync(join(pgDir!, 'data', 'postmaster.pid'), 'utf8').split('\n')[0],
  );
  return { child, output: () => output, nodePid, pgDir: pgDir!, postgresPid };
}

describe('npm run cluster', () => {
  it(
    'a second run cleans up what a killed run left; SIGTERM stops everything it started',
    { timeout: 120_000 },
    async () => {
      const killed = await startRun();
      expect(isAlive(killed.nodePid)).toBe(true);
      expect(isAlive(killed.postgresPid)).toBe(true);
      killed.child.kill('SIGKILL');
      await expect
        .poll(() => killed.child.exitCode !== null || killed.child.signalCode !== null)
        .toBe(true);
      // Killed: nothing of it stopped its node or its database.
      expect(isAlive(killed.nodePid)).toBe(true);
      expect(isAlive(killed.postgresPid)).toBe(true);

      const next = await startRun();
      expect(next.output()).toContain('left by a run that was killed');
      expect(isAlive(killed.nodePid)).toBe(false);
      expect(isAlive(killed.postgresPid)).toBe(false);
      expect(existsSync(killed.pgDir)).toBe(false);
      expect(JSON.parse(readFileSync(LOCK, 'utf8'))).toEqual({
        pid: next.child.pid,
        nodes: [next.nodePid],
      });

      next.child.kill('SIGTERM');
      await expect.poll(() => next.child.exitCode, { timeout: 20_000 }).not.toBeNull();
      expect(isAlive(next.nodePid)).toBe(false);
      expect(isAlive(next.postgresPid)).toBe(false);
      expect(existsSync(LOCK)).toBe(false);
      expect(existsSync(next.pgDir)).toBe(false);
    },
  );
});
