/**
 * Command-line options shared by `report`, `filter` and `score` (docs/cli.md §Options), parsed into settings
 * with messages that name the option and what it expects.
 */
import { FIELD_ROLES, resolveSettings, validateSettings, type FieldRole, type ProfSettings } from '../core/profSettings';
import { isScorerChoice, SCORER_CHOICES, type ScorerChoice } from '../core/scorerChoice';
import { parseRuleParam, RULE_NAMES, ruleNamed } from '../core/rules/registry';

export class UsageError extends Error {}

export interface ParsedArgs {
  positionals: string[];
  settings: ProfSettings;
  scorer: ScorerChoice;
  flags: Set<string>;
  /** The last value of each option (number options too, as written: `values.has('--threshold')` says it was given). */
  values: Map<string, string>;
  /** Every value of an option that may be given more than once (`--url`), in order. */
  lists: Map<string, string[]>;
}

const NUMBER_OPTIONS: Record<string, keyof ProfSettings> = {
  '--m': 'm',
  '--remove': 'remove',
  '--seed': 'seed',
  '--lambda': 'lambda',
  '--max-steps': 'maxSteps',
  '--threshold': 'threshold',
};
const CHOICE_OPTIONS: Record<string, keyof ProfSettings> = { '--variant': 'variant', '--penalty': 'penalty', '--aggregate': 'aggregate', '--split': 'split' };
const VALUE_OPTIONS = new Set(['-o', '--output', '--decisions', '--model', '--url', '--model-name', '--cache-dir', '--threads', '--providers', '--scorer', '--false-positive-rules', '--concurrency', '--max-tokens', '--jobs', '--labels', '--critic', '--sample', '--timeout', '--tokenizer', '--rule', '--rule-param']);
/** Options that may be repeated, each value kept. */
const LIST_OPTIONS = new Set(['--url', '--critic', '--rule-param']);
const FLAG_OPTIONS = new Set(['--json', '--csv', '--help', '-h', '--no-cache', '--quiet', '--sweep', '--calibrate', '--yes', '--validation']);

/** Parse argv (after the command name). */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const partial: Record<string, unknown> = {};
  const fields: Partial<Record<FieldRole, string>> = {};
  const out: ParsedArgs = { positionals: [], settings: resolveSettings(), scorer: 'auto', flags: new Set(), values: new Map(), lists: new Map() };
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = splitInline(argv[i]!);
    const takeValue = (): string => {
      if (inline !== undefined) return inline;
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${name} needs a value`);
      return v;
    };
    // Own properties only: a file named `constructor` or `__proto__` is a file, not an option.
    if (Object.hasOwn(NUMBER_OPTIONS, name)) {
      const value = takeValue();
      partial[NUMBER_OPTIONS[name]!] = toNumber(name, value);
      out.values.set(name, value);
    }
    else if (Object.hasOwn(CHOICE_OPTIONS, name)) partial[CHOICE_OPTIONS[name]!] = takeValue();
    else if (name === '--field') addField(fields, takeValue());
    else if (VALUE_OPTIONS.has(name)) addValue(out, name === '--output' ? '-o' : name, takeValue());
    else if (FLAG_OPTIONS.has(name)) out.flags.add(name === '-h' ? '--help' : name);
    else if (name.startsWith('-') && name !== '-') throw new UsageError(`unknown option ${name} (see prof-lens --help)`);
    else out.positionals.push(argv[i]!);
  }
  const rules = out.values.get('--false-positive-rules');
  if (rules) partial.falsePositiveRules = rules.split(',').map((r) => r.trim());
  const tokenizer = out.values.get('--tokenizer');
  if (tokenizer) partial.tokenizerDir = tokenizer;
  const curation = ruleChoice(out);
  if (curation) partial.curation = curation;
  out.settings = resolveSettings({ ...(partial as Partial<ProfSettings>), fields });
  const problems = validateSettings(out.settings);
  if (problems.length) throw new UsageError(problems.join('\n'));
  out.scorer = parseScorer(out.values.get('--scorer'));
  return out;
}

/** `--rule NAME` and its `--rule-param k=v` (docs/curation-rules.md); none given: PROF, the settings unchanged. */
function ruleChoice(out: ParsedArgs): ProfSettings['curation'] | undefined {
  const name = out.values.get('--rule');
  const given = out.lists.get('--rule-param') ?? [];
  if (name === undefined && given.length === 0) return undefined;
  const rule = ruleNamed(name ?? 'prof');
  if (!rule) throw new UsageError(`--rule must be one of ${RULE_NAMES.join(', ')}, got "${name}"`);
  const params: Record<string, number | boolean | string | null> = {};
  for (const text of given) {
    const parsed = parseRuleParam(rule, text);
    if (typeof parsed === 'string') throw new UsageError(rule.name === 'prof' ? `${parsed}; PROF is set with --m, --remove, --variant, --seed, --penalty, --lambda, --max-steps and --aggregate` : parsed);
    params[parsed.name] = parsed.value;
  }
  return { rule: rule.name, params };
}

function addValue(out: ParsedArgs, name: string, value: string): void {
  out.values.set(name, value);
  if (LIST_OPTIONS.has(name)) out.lists.set(name, [...(out.lists.get(name) ?? []), value]);
}

function splitInline(arg: string): [string, string | undefined] {
  if (!arg.startsWith('--')) return [arg, undefined];
  const eq = arg.indexOf('=');
  return eq === -1 ? [arg, undefined] : [arg.slice(0, eq), arg.slice(eq + 1)];
}

function toNumber(name: string, value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new UsageError(`${name} expects a number, got "${value}"`);
  return n;
}

function addField(fields: Partial<Record<FieldRole, string>>, spec: string): void {
  const eq = spec.indexOf('=');
  const role = spec.slice(0, eq) as FieldRole;
  if (eq <= 0 || !FIELD_ROLES.includes(role)) {
    throw new UsageError(`--field expects <role>=<json.path> with role one of ${FIELD_ROLES.join(', ')}; got "${spec}"`);
  }
  fields[role] = spec.slice(eq + 1);
}

function parseScorer(value: string | undefined): ScorerChoice {
  if (value === undefined) return 'auto';
  if (!isScorerChoice(value)) throw new UsageError(`--scorer must be one of ${SCORER_CHOICES.join(', ')}, got "${value}"`);
  return value;
}

/** `--jobs N` as given (a whole number ≥ 1), or undefined when it was not. */
export function jobsOption(args: ParsedArgs): number | undefined {
  const value = args.values.get('--jobs');
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--jobs expects a whole number ≥ 1, got "${value}"`);
  return n;
}
