/**
 * One server node as a child process: `src/server/node-main.ts`, what
 * `npm run serve` runs, started with node and the tsx loader directly (not
 * through npm, whose extra processes would outlive a kill of the node).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');
const NODE_MAIN = resolve(ROOT, 'src/server/node-main.ts');
/** How long a node may take to say it listens (tsx compiles on start; CPUs are shared). */
const START_DEADLINE_MS = 30_000;

export interface NodeProcess {
  /** Its name: also its runner's id in leases (`--node-id`). */
  name: string;
  /** Its own MCP endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  url: string;
  pid: number;
  child: ChildProcess;
  /** Resolves with the exit code (or the signal's name) once it has exited. */
  exited: Promise<number | string>;
}

export interface SpawnNodeOptions {
  name: string;
  /** `memory` or a PostgreSQL URL, passed in the environment as `MCP_TASKS_STORE`. */
  store: string;
  /** 0 (the default) for any free port. */
  port?: number;
  /** Where its output goes, line by line, prefixed with its name. */
  log?: (line: string) => void;
  /** More flags for node-main. */
  args?: readonly string[];
}

/** The command line that starts a node: what `npm run serve -- …` runs. */
export function nodeCommand(args: readonly string[]): [string, string[]] {
  return [process.execPath, ['--import', 'tsx', NODE_MAIN, ...args]];
}

/** Starts a node; resolves once it listens, rejects if it exits first. */
export function spawnNode(options: SpawnNodeOptions): Promise<NodeProcess> {
  const [command, args] = nodeCommand([
    '--port',
    String(options.port ?? 0),
    '--node-id',
    options.name,
    ...(options.args ?? []),
  ]);
  // Its own process group: a Ctrl-C in the terminal reaches only the cluster, which then
  // stops each node once, instead of every node also getting the terminal's SIGINT and then
  // the cluster's SIGTERM as a second, impatient signal.
  const child = spawn(command, args, {
    cwd: ROOT,
    // The store's URL (with its password) goes in the environment, not on the command line.
    env: { ...process.env, MCP_TASKS_STORE: options.store },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<number | string>((done) =>
    child.once('exit', (code, signal) => done(code ?? signal ?? 'unknown')),
  );
  const log = options.log ?? (() => {});
  return new Promise((resolveNode, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${options.name} did not start in ${START_DEADLINE_MS} ms:\n${output}`));
    }, START_DEADLINE_MS);
    const onLine = (stream: 'out' | 'err') => (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output += text;
      for (const line of text.split('\n').filter(Boolean))
        log(`[${options.name}]${stream === 'err' ? ' (stderr)' : ''} ${line}`);
      const listening = /listening on (http:\S+)/.exec(output);
      if (listening?.[1] && child.pid !== undefined) {
        clearTimeout(timer);
        resolveNode({ name: options.name, url: listening[1], pid: child.pid, child, exited });
      }
    };
    child.stdout?.on('data', onLine('out'));
    child.stderr?.on('data', onLine('err'));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${options.name} exited (${code}) before it listened:\n${output}`));
    });
  });
}
