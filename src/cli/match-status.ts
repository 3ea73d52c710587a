/** `thoth match-status redis://… [RUN] [--follow] [--json] [--page [--port N]]`: the live summary of distributed runs. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStatusPage } from '../distributed/page';
import { REDIS_URL_SYNTAX, isRunId, openRedis, redisAddress } from '../distributed/redis';
import { datagenStatusLines, isDatagenStatus } from '../distributed/datagen-jobs';
import { listRuns, MalformedStatus, readLlrSeries, readStatus, statusLines } from '../distributed/status';
import { CommandError, UsageError, intOption, parseArgs, type CommandSpec } from './args';
import { exitSoon } from './match';

export const MATCH_STATUS_SPEC: CommandSpec = {
  name: 'match-status',
  positional: 'redis[s]://[USER[:PASSWORD]@]HOST:PORT[/DB] [RUN]',
  summary:
    'The live summary of a distributed match (thoth match -distributed): workers, queue, the summary lines; RUN is ' +
    'the run id the match printed (default: the newest run).',
  options: [
    { name: 'follow', help: 'print it again as the run goes on, until it ends' },
    { name: 'json', help: 'the status as one JSON object per print' },
    { name: 'page', help: 'serve a status page on 127.0.0.1 (standings, Elo, workers, the LLR over the games)' },
    { name: 'port', value: 'N', help: "the page's port (0 = any free port)", default: '0' },
    { name: 'redis-ca', value: 'FILE', help: 'the CA certificates of a rediss:// server' },
    {
      name: 'redis-password-file',
      value: 'FILE',
      help: "the Redis password (else the address's, else $THOTH_REDIS_PASSWORD)",
    },
  ],
  notes: ['See docs/distributed.md.'],
};

/** dist/status/: the page's files (beside the bundle, or under the repository when run from the sources). */
function statusPageDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const d of [path.join(here, 'status'), path.join(here, '..', '..', 'dist', 'status')])
    if (existsSync(path.join(d, 'index.html'))) return d;
  return path.join(here, 'status');
}

export async function matchStatusCommand(argv: string[], write: (s: string) => void): Promise<void> {
  const args = parseArgs(argv, MATCH_STATUS_SPEC);
  if (args.positional.length < 1 || args.positional.length > 2) {
    throw new UsageError(`usage: thoth match-status ${REDIS_URL_SYNTAX} [RUN] [options] (thoth match-status --help)`);
  }
  const addr = redisAddress(args.positional[0], {
    caFile: args.options.get('redis-ca')?.[0],
    passwordFile: args.options.get('redis-password-file')?.[0],
  });
  if (!addr.ok) throw new UsageError(addr.error.message);
  const wanted = args.positional[1];
  if (wanted !== undefined && !isRunId(wanted))
    throw new UsageError(`'${wanted}' is not a run id (12 hex digits, as thoth match -distributed prints)`);
  const port = intOption(args, 'port', 0, 0, 65535);
  const redis = await openRedis(addr.value);
  try {
    if (args.options.has('page')) {
      const dir = statusPageDir();
      if (!existsSync(path.join(dir, 'index.html')))
        throw new UsageError(`the page's files are missing (${dir}); run \`npm run build\` first`);
      const page = await startStatusPage(redis, { port, staticDir: dir, run: wanted });
      write(`Status page: ${page.url}`);
      write("Open the address above in a browser (it holds this server's secret token). Ctrl-C stops the server.");
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          void page.close().then(resolve, resolve);
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      return;
    }
    const runs = await listRuns(redis);
    const run = wanted ?? runs[0];
    if (run === undefined) throw new CommandError(`no distributed run in Redis at ${addr.value.text}`, 1);
    let last = 0;
    for (;;) {
      const s = await readStatus(redis, run);
      if (!s)
        throw new CommandError(
          `run ${run} has no status in Redis at ${addr.value.text}${runs.length > 0 ? ` (runs: ${runs.join(', ')})` : ''}`,
          1,
        );
      if (s.updated !== last) {
        last = s.updated;
        if (args.options.has('json')) write(JSON.stringify({ ...s, llr: await readLlrSeries(redis, run) }));
        else {
          for (const l of isDatagenStatus(s) ? datagenStatusLines(s) : statusLines(s)) write(l);
          if (!wanted && runs.length > 1) write(`Other runs: ${runs.slice(1).join(', ')}`);
        }
      }
      if (!args.options.has('follow') || s.state !== 'running') break;
      await new Promise((r) => setTimeout(r, 2000));
      if (!args.options.has('json')) write('');
    }
  } catch (e) {
    if (e instanceof MalformedStatus) throw new CommandError(e.message, 1);
    // A user the ACL does not let read something: one line, no stack.
    if ((e as Error).name === 'ReplyError')
      throw new CommandError(`Redis at ${addr.value.text}: ${(e as Error).message.split('\n')[0]}`, 1);
    throw e;
  } finally {
    redis.disconnect();
    exitSoon();
  }
}
