/**
 * Summarises a saved page profile again, offline, as the bench does:
 *
 *   npx tsx scripts/bench/summarise-profile.ts bench-results/page-follow-top.cpuprofile [dist]
 *
 * The scripts' source maps are read from the build they came from (`dist/`
 * unless given; a later build has other file names and maps nothing).
 */
import { readFileSync } from 'node:fs';
import { TraceMap, type SourceMapInput } from '@jridgewell/trace-mapping';
import { formatProfile, summarise } from './cpu-profile.ts';
import { PAGE_TABLES } from './page-entry-points.ts';
import type { Profile } from './profile-attribution.ts';

const [file, dist = 'dist'] = process.argv.slice(2);
if (!file) {
  console.error('usage: summarise-profile.ts <file.cpuprofile> [the build it profiled: dist]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const summary = await summarise(profile, PAGE_TABLES, 15, async (url) => {
  const script = /\/(assets\/[^/]+\.js)$/.exec(url)?.[1];
  if (!script) return undefined;
  try {
    return new TraceMap(
      JSON.parse(readFileSync(`${dist}/${script}.map`, 'utf8')) as SourceMapInput,
    );
  } catch {
    return undefined;
  }
});
for (const line of formatProfile(file, summary)) console.log(line);
