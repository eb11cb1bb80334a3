/**
 * Starts the one PostgreSQL server every PG test shares (scripts/local-postgres.ts:
 * a free port, a fresh temporary directory, leftovers of a killed run removed),
 * hands its URL to the tests, and stops it when they are done.
 */
import type { TestProject } from 'vitest/node';
import { startLocalPostgres, type LocalPostgres } from '../../scripts/local-postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared server's connection URL. */
    pgUrl: string;
  }
}

let server: LocalPostgres | undefined;

export async function setup(project: TestProject): Promise<void> {
  server = await startLocalPostgres({ purpose: 'test', fast: true });
  project.provide('pgUrl', server.url);
}

export async function teardown(): Promise<void> {
  await server?.stop();
}
