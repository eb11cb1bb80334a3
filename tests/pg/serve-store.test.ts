/**
 * `npm run serve -- --store …` as a child process: a malformed store URL or
 * an unreachable database stops it at start with a clear message and exit
 * 2; the database going away mid-run gets each request a `-32603` saying
 * the store is unavailable, the node keeps running, and service resumes
 * once the database is back.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeCommand, spawnNode, type NodeProcess } from '../../scripts/cluster/node-process.ts';
import { stopNode } from '../../scripts/cluster/start-cluster.ts';
import { freePort, startLocalPostgres, type LocalPostgres } from '../../scripts/local-postgres.ts';
import { mcp, startTask } from './mcp-http.ts';

/** Runs node-main with `args` to its end; at most 30 s. */
function serveToExit(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const [command, argv] = nodeCommand(['--port', '0', ...args]);
  const child = spawn(command, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    }),
  );
}

describe('npm run serve -- --store: bad input at start', () => {
  it('a malformed store URL: a clear message and exit 2', async () => {
    const notAUrl = await serveToExit(['--store', 'postgres//nowhere']);
    expect(notAUrl.code).toBe(2);
    expect(notAUrl.stderr).toContain('Invalid --store "postgres//nowhere"');
    const wrongScheme = await serveToExit(['--store', 'mysql://u:secret@localhost/db']);
    expect(wrongScheme.code).toBe(2);
    expect(wrongScheme.stderr).toContain('the scheme is mysql, expected postgres');
    expect(wrongScheme.stderr).not.toContain('secret');
  });

  it('an unreachable database: a clear message and exit 2, the password never shown', async () => {
    const port = await freePort();
    const run = await serveToExit(['--store', `postgres://u:secret@127.0.0.1:${port}/tasks`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `Cannot open the task store postgres://u:***@127.0.0.1:${port}/tasks`,
    );
    // Said once: the failure inside opening the store is not wrapped a second time.
    expect(run.stderr.match(/the task store is unavailable/g)).toHaveLength(1);
    expect(run.stderr).not.toContain('secret');
  });
});

describe('npm run serve -- --store postgres://…: the database going away mid-run', () => {
  let database: LocalPostgres;
  let node: NodeProcess;

  beforeAll(async () => {
    // A server of its own: this test stops it, and the other PG tests share theirs.
    database = await startLocalPostgres({ purpose: 'test-outage', fast: true });
    node = await spawnNode({ name: 'outage-node', store: database.url });
  });
  afterAll(async () => {
    if (node) await stopNode(node);
    await database?.stop();
  });

  it('each request gets -32603 saying the store is unavailable, nothing crashes, and service resumes', async () => {
    const taskId = await startTask(node.url, 'slow_compute', { seconds: 0.2 });
    expect((await mcp(node.url, 'tasks/get', { taskId })).result?.['taskId']).toBe(taskId);

    await database.pause();
    for (const [method, params] of [
      ['tasks/get', { taskId }],
      ['tools/call', { name: 'slow_compute', arguments: { seconds: 0.2 } }],
      ['tasks/cancel', { taskId }],
    ] as const) {
      const reply = await mcp(node.url, method, params);
      expect(reply.error?.code, method).toBe(-32603);
      expect(reply.error?.message, method).toMatch(/the task store is unavailable/);
    }
    expect(node.child.exitCode).toBeNull();

    await database.resume();
    await expect
      .poll(async () => (await mcp(node.url, 'tasks/get', { taskId })).result?.['status'], {
        timeout: 15_000,
        interval: 200,
      })
      .toBe('completed');
    const after = await startTask(node.url, 'slow_compute', { seconds: 0.2 });
    await expect
      .poll(async () => (await mcp(node.url, 'tasks/get', { taskId: after })).result?.['status'], {
        timeout: 10_000,
        interval: 200,
      })
      .toBe('completed');
    expect(node.child.exitCode).toBeNull();
  });
});
