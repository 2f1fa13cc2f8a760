/**
 * `prof-lens doctor [--model DIR] [--url URL]... [--scorer critic] [--providers LIST] [--json]`: the
 * setup check of the editor's `PROF Lens: Check Setup`, in a terminal — versions, execution
 * providers, a model folder validated and smoke-scored, each endpoint reached (a PRM's `/pooling`
 * smoke score, or a critic's judgement of a tiny solution with a planted error). Exit 0 when
 * nothing failed, 1 when a check did.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { formatSetupReport, runSetupCheck } from '../../scoring/setup/setupCheck';
import { API_KEY_ENV } from '../../scoring/scorers/http/httpScorer';
import { parseArgs, UsageError } from '../args';
import { EXIT_OK, type CliIo } from '../io';
import { terminalJson, terminalText } from '../terminalText';

/** Exit code of a doctor run in which at least one check failed. */
export const EXIT_CHECK_FAILED = 1;

/** The version in the nearest prof-lens package.json above this bundle (dist/ or src/cli/commands/). */
function ownVersion(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const path = join(dir, 'package.json');
    if (!existsSync(path)) continue;
    const manifest = JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown; version?: unknown };
    if (manifest.name === 'prof-lens' && typeof manifest.version === 'string') return manifest.version;
  }
  return 'unknown';
}

/** Runs the setup check with the options given and prints its report (text, or JSON with --json). */
export async function doctorCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv);
  if (args.positionals.length > 0) throw new UsageError(`doctor takes no files (got ${args.positionals.join(' ')}); usage: prof-lens doctor [--model DIR] [--url URL]`);
  const providers = args.values.get('--providers')?.split(',').map((p) => p.trim()).filter(Boolean);
  const urls = args.lists.get('--url') ?? [];
  const isCritic = args.scorer === 'critic';
  if (isCritic && urls.length === 0) throw new UsageError('doctor --scorer critic needs --url <base> (an OpenAI-compatible server)');
  const maxTokens = Number(args.values.get('--max-tokens'));
  const modelName = args.values.get('--model-name');
  const apiKey = (io.env ?? process.env)[API_KEY_ENV];
  const report = await runSetupCheck({
    version: ownVersion(),
    host: 'prof-lens command line',
    modelDir: args.values.get('--model') ?? null,
    endpointUrls: isCritic ? [] : urls,
    critic: isCritic ? { urls, ...(modelName ? { modelName } : {}), ...(Number.isInteger(maxTokens) && maxTokens > 0 ? { maxTokens } : {}) } : null,
    ...(apiKey ? { apiKey } : {}),
    ...(providers ? { providers } : {}),
    onStep: (message) => {
      if (io.isStderrTty) io.stderr(`doctor: ${message}…\n`);
    },
  });
  io.stdout(args.flags.has('--json') ? terminalJson(`${JSON.stringify(report, null, 2)}\n`) : terminalText(formatSetupReport(report)));
  return report.errors > 0 ? EXIT_CHECK_FAILED : EXIT_OK;
}
