/**
 * Exec under load with rate limits shared through a real redis-server, then with that Redis stopped
 * (SIGSTOP) for a while under the same load: the breaker must keep the server answering at once.
 * Goal (issue 32): at least half the req/s of Redis well, p99 under 50 ms, no answer but 2xx and 429.
 * Alone: `npx tsx scripts/bench/redis-bench.ts [--quick]`, against the project's dist/.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort, hasRedis, startRedis } from '../../test/helpers/redis.js';
import { BENCH_KEY, load, type LoadFigures, serviceSeed, startOurs } from './http-bench.js';
import { sleep } from './measure.js';

export interface RedisFigures {
  well: LoadFigures;
  stopped: LoadFigures;
  stoppedSeconds: number;
  /** The breaker's state at the end of the stop, and once requests after SIGCONT found Redis again. */
  breakerWhileStopped: string;
  breakerAfter: string;
}

const breakerState = async (url: string): Promise<string> => {
  const text = await (await fetch(url + '/metrics', { headers: { 'x-apikey': BENCH_KEY } })).text();
  return /^facetform_rate_limit_breaker_state\{state="([a-z-]+)"\} 1$/m.exec(text)?.[1] ?? 'none';
};

export async function redisBench(
  dist: string,
  options: { seconds: number; warmupSeconds: number; stoppedSeconds: number },
): Promise<RedisFigures> {
  const redis = await startRedis(await freePort());
  const server = await startOurs(dist, { REDIS_URL: redis.url });
  try {
    const target = [serviceSeed()];
    await load(server.url, target, options.warmupSeconds);
    const well = await load(server.url, target, options.seconds);
    redis.pause();
    const stopped = await load(server.url, target, options.stoppedSeconds);
    const breakerWhileStopped = await breakerState(server.url);
    redis.resume();
    // The breaker closes on a request's probe, at most a second after it opened again.
    let breakerAfter = await breakerState(server.url);
    for (let tries = 0; breakerAfter !== 'closed' && tries < 50; tries++) {
      await sleep(100);
      breakerAfter = await breakerState(server.url);
    }
    return { well, stopped, stoppedSeconds: options.stoppedSeconds, breakerWhileStopped, breakerAfter };
  } finally {
    await server.stop();
    await redis.stop();
  }
}

/** Answers that are neither 2xx nor 429, and requests without an answer. */
const refused = (figures: LoadFigures) =>
  Object.entries(figures.statuses).reduce((sum, [status, count]) => sum + (/^2/.test(status) || status === '429' ? 0 : count), 0) +
  figures.errors;

/** The rows of `npm run bench`; one saying so when redis-server is not installed. */
export async function redisRows(dist: string, options: { seconds: number; warmupSeconds: number; stoppedSeconds: number }) {
  const benchmark = `Redis stopped ${options.stoppedSeconds} s under load (50 conn.)`;
  if (!hasRedis)
    return { figures: undefined, rows: [{ benchmark, comparedWith: '-', figure: 'redis-server is not installed', goal: '-', met: false }] };
  const figures = await redisBench(dist, options);
  const { well, stopped } = figures;
  const ratio = stopped.requestsPerSecond / well.requestsPerSecond;
  const fixed = (value: number, digits = 1) => value.toFixed(digits);
  const rows = [
    {
      benchmark,
      comparedWith: 'exec with Redis well',
      figure: `${fixed(ratio * 100, 0)}% of its req/s (${fixed(stopped.requestsPerSecond, 0)} vs ${fixed(well.requestsPerSecond, 0)})`,
      goal: '≥ 50%',
      met: ratio >= 0.5,
    },
    {
      benchmark: '',
      comparedWith: 'p99 while stopped',
      figure: `${fixed(stopped.p99Ms)} ms (${fixed(well.p99Ms)} ms with Redis well)`,
      goal: '< 50 ms',
      met: stopped.p99Ms < 50,
    },
    {
      benchmark: '',
      comparedWith: 'answers while stopped',
      figure: `${refused(stopped)} other than 2xx or 429 of ${stopped.total} (${refused(well)} of ${well.total} with Redis well)`,
      goal: '0',
      met: refused(stopped) === 0 && refused(well) === 0,
    },
    {
      benchmark: '',
      comparedWith: 'the breaker',
      figure: `${figures.breakerWhileStopped} at the end of the stop, ${figures.breakerAfter} after SIGCONT`,
      goal: 'open, closed',
      met: figures.breakerWhileStopped !== 'closed' && figures.breakerAfter === 'closed',
    },
  ];
  return { figures, rows };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const quick = process.argv.includes('--quick');
  const options = quick ? { seconds: 1, warmupSeconds: 1, stoppedSeconds: 1 } : { seconds: 10, warmupSeconds: 5, stoppedSeconds: 5 };
  const { figures, rows } = await redisRows(path.resolve(import.meta.dirname, '../../dist'), options);
  for (const row of rows)
    console.log(`| ${row.benchmark} | ${row.comparedWith} | ${row.figure} | ${row.goal} | ${row.met ? 'yes' : 'NO'} |`);
  if (figures !== undefined) console.log(JSON.stringify(figures));
}
