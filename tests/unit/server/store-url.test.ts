/**
 * `npm run serve -- --store` and `npm run cluster -- --database`: a wrong
 * value is said in one wording for both (`Invalid --… "value": …, expected
 * …`), with the password hidden; `--database` takes no `memory`, and says
 * why and where per-node memory is.
 */
import { describe, expect, it } from 'vitest';
import { parseDatabaseOption, parseStoreOption } from '../../../src/server/pg/store-url.ts';

const messageOf = (choice: ReturnType<typeof parseStoreOption>): string =>
  choice.kind === 'error' ? choice.message : `not an error: ${choice.kind}`;

describe('--store and --database: one wording', () => {
  it('each bad value is said alike by both options, naming the option and what it expects', () => {
    const cases: [string, RegExp][] = [
      ['postgres//nowhere', /: expected .*a URL postgres:\/\/user:password@host:port\/database$/],
      ['mysql://u:secret@localhost/db', /: the scheme is mysql, expected postgres/],
      ['postgres:///db', /: the URL names no host$/],
      ['postgres://u:secret@db.example:0/db', /: bad port 0$/],
    ];
    for (const [value, why] of cases) {
      const store = messageOf(parseStoreOption(value));
      const database = messageOf(parseDatabaseOption(value));
      expect(store).toMatch(/^Invalid --store "/);
      expect(database).toMatch(/^Invalid --database "/);
      expect(store).toMatch(why);
      expect(database).toMatch(why);
      // The same sentence but for the option's name and what else it takes.
      const withoutMemory = store
        .replace('--store', '--database')
        .replace('"memory" or ', '')
        .replace(' (or "memory")', '');
      expect(withoutMemory).toBe(database);
      expect(store + database).not.toContain('secret');
    }
  });

  it('memory is a store for one node, not a database: --database says so and where it is', () => {
    expect(parseStoreOption('memory')).toEqual({ kind: 'memory' });
    expect(messageOf(parseDatabaseOption('memory'))).toBe(
      'Invalid --database "memory": expected a URL postgres://user:password@host:port/database (the cluster\'s nodes share one database; per-node memory is one node\'s: npm run serve -- --store memory)',
    );
    expect(parseDatabaseOption('postgres://u:pw@db.example:5432/tasks')).toMatchObject({
      kind: 'postgres',
      shown: 'postgres://u:***@db.example:5432/tasks',
    });
  });
});
