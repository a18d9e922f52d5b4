/**
 * Exec and GET /healthz over HTTP against a bare Koa server (versusBare, http-bench.ts): the rows of
 * `npm run bench`. Alone, after `npm run compile`: `npx tsx scripts/bench/versus-bare.ts [--quick]`
 * measures only these two, with the whole bench's settings, against the project's dist/: a few
 * minutes where the whole bench takes half an hour, for a change to the request path.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { healthz, type LoadFigures, serviceSeed, versusBare } from './http-bench.js';

export interface Row {
  benchmark: string;
  comparedWith: string;
  figure: string;
  goal: string;
  met: boolean;
}

export const fixed = (value: number, digits = 1) => value.toFixed(digits);

/**
 * Which figure of a route carries a goal (issue 35): the framework is judged by GET /healthz's
 * requests per second against a bare Koa GET, the product by exec's server CPU per request against a
 * bare Koa route that parses the same body; the other figures are shown.
 */
interface HttpGoals {
  rps?: number;
  cpu?: number;
}

/** Requests per second, p99 and server CPU per request of ours against the bare server. */
function httpRows(name: string, comparedWith: string, http: { ours: LoadFigures; bare: LoadFigures }, goals: HttpGoals): Row[] {
  const rpsRatio = http.ours.requestsPerSecond / http.bare.requestsPerSecond;
  const p99Ratio = http.ours.p99Ms / Math.max(http.bare.p99Ms, 1);
  const [ours, bare] = [http.ours.cpuMicrosPerRequest!, http.bare.cpuMicrosPerRequest!];
  return [
    {
      benchmark: name,
      comparedWith,
      figure: `${fixed(rpsRatio * 100, 0)}% of its req/s (${fixed(http.ours.requestsPerSecond, 0)} vs ${fixed(http.bare.requestsPerSecond, 0)})`,
      goal: goals.rps === undefined ? 'shown' : `≥ ${fixed(goals.rps * 100, 0)}%`,
      met: goals.rps === undefined || rpsRatio >= goals.rps,
    },
    {
      benchmark: '',
      comparedWith,
      figure: `p99 ${fixed(p99Ratio, 2)}x (${fixed(http.ours.p99Ms)} ms vs ${fixed(http.bare.p99Ms)} ms)`,
      goal: 'shown',
      met: true,
    },
    {
      benchmark: '',
      comparedWith: 'its server CPU per request',
      figure: `${fixed(ours / bare, 2)}x (${fixed(ours, 0)} µs vs ${fixed(bare, 0)} µs)`,
      goal: goals.cpu === undefined ? 'shown' : `≤ ${goals.cpu}x`,
      met: goals.cpu === undefined || ours / bare <= goals.cpu,
    },
    {
      benchmark: '',
      comparedWith: '',
      figure: `${http.ours.non2xx} non-2xx, ${http.ours.errors} errors of ${http.ours.total}`,
      goal: '0 non-2xx',
      met: http.ours.non2xx === 0 && http.ours.errors === 0,
    },
  ];
}

export interface HttpSettings {
  seconds: number;
  warmupSeconds: number;
  rounds: number;
}

/** Exec, then /healthz, each against the bare server: their figures and rows. */
export async function versusBareRows(dist: string, settings: HttpSettings, log: (text: string) => void) {
  log('exec over HTTP against a bare Koa route …');
  const http = await versusBare(dist, serviceSeed(), settings);
  log('GET /healthz against a bare Koa GET …');
  const health = await versusBare(dist, healthz(), settings);
  const rows = [
    ...httpRows('exec over HTTP (50 conn.)', 'bare Koa route', http, { cpu: 1.5 }),
    ...httpRows('GET /healthz (50 conn.)', 'bare Koa GET', health, { rps: 0.9 }),
  ];
  return { figures: { http, healthz: health }, rows };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const quick = process.argv.includes('--quick');
  const settings = quick ? { seconds: 1, warmupSeconds: 1, rounds: 1 } : { seconds: 10, warmupSeconds: 5, rounds: 3 };
  const log = (text: string) => process.stderr.write(`${text}\n`);
  const { figures, rows } = await versusBareRows(path.resolve(import.meta.dirname, '../../dist'), settings, log);
  for (const row of rows)
    console.log(`| ${row.benchmark} | ${row.comparedWith} | ${row.figure} | ${row.goal} | ${quick ? '-' : row.met ? 'yes' : 'NO'} |`);
  console.log(JSON.stringify(figures));
}
