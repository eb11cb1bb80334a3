/**
 * Starts `balancer-main.ts` (the cluster's balancer) as a child process, as
 * the bench measures it: apart from the load generator, the way
 * `npm run cluster` runs it apart from any client.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type { BalancerTarget } from './balancer.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const BALANCER_MAIN = resolve(ROOT, 'scripts/cluster/balancer-main.ts');
/** tsx compiles on start, on CPUs shared with the rest of the bench. */
const START_DEADLINE_MS = 30_000;

export interface BalancerProcess {
  /** Its origin; the MCP endpoint is `${origin}/mcp`. */
  origin: string;
  pid: number;
  /** Asks it to stop (SIGTERM) and waits until it has. */
  stop(): Promise<void>;
}

/** Resolves once the balancer listens; rejects if it exits first or takes too long. */
export function spawnBalancer(targets: readonly BalancerTarget[]): Promise<BalancerProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', BALANCER_MAIN, ...targets.map((t) => `${t.name}=${t.origin}`)],
    // From the project's root, where the tsx loader resolves.
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return new Promise((resolveBalancer, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the balancer did not start in ${START_DEADLINE_MS} ms:\n${output}`));
    }, START_DEADLINE_MS);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const listening = /balancer listening on (http:\S+)/.exec(output);
      if (!listening?.[1] || child.pid === undefined) return;
      clearTimeout(timer);
      resolveBalancer({
        origin: listening[1],
        pid: child.pid,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the balancer exited before it listened:\n${output}`));
    });
  });
}
