/**
 * The curation rules over a kept analysis (the Compare Rules view, the Explorer's `disagree`
 * filter): its rollouts as the rules read them, made once per analysis with their response texts
 * (streamed from wherever the analysis keeps them, within a budget), then decided by the same
 * `compareRules` the CLI's `rules` runs, so both show the same numbers.
 */
import { eachRollout, type FileAnalysis } from '../../core/report/fileAnalysis';
import type { GroupMember } from '../../core/rules/groups';
import type { RuleDisagreement } from '../../core/explore/explorerQuery';
import type { RolloutTextSource } from '../../core/explore/textSearch';
import { compareRules, memberOf, type RulesComparison } from '../../core/rules/compareRules';
import { decideAll } from '../../core/rules/decideList';
import type { RuleParams } from '../../core/rules/rule';

/** Response characters read for the rules at most; past it no text is kept and the figures say so. */
export const MAX_RULE_TEXT_CHARS = 64_000_000;

interface Members {
  list: GroupMember[];
  /** Every response text was at hand (within the budget). */
  keepsText: boolean;
}

/** The rules over one analysis; a new analysis gets a new one. */
export class KeptRules {
  private members: Promise<Members> | null = null;
  private last: { key: string; comparison: RulesComparison } | null = null;

  constructor(private readonly analysis: FileAnalysis, private readonly texts: RolloutTextSource | null, private readonly maxTextChars = MAX_RULE_TEXT_CHARS) {}

  /** Every rule side by side, `params` per rule (the comparison of the last parameters is kept). */
  async comparison(params: Readonly<Record<string, RuleParams>>, signal?: AbortSignal): Promise<RulesComparison> {
    const key = JSON.stringify(params);
    if (this.last?.key === key) return this.last.comparison;
    const { list, keepsText } = await this.memberList(signal);
    const comparison = compareRules(list, this.analysis.settings, params, keepsText);
    this.last = { key, comparison };
    return comparison;
  }

  /** 1 for each rollout (by file position) that one of the two rules keeps and the other drops. */
  async disagreement(d: RuleDisagreement, signal?: AbortSignal): Promise<Uint8Array> {
    const { list } = await this.memberList(signal);
    const decide = (rule: string): boolean[] => decideAll(list, { ...this.analysis.settings, curation: { rule, params: d.params[rule] ?? {} } }).decisions.map((x) => x.kept);
    const a = decide(d.a);
    const b = decide(d.b);
    const out = new Uint8Array(list.length);
    for (let i = 0; i < list.length; i++) out[i] = a[i] !== b[i] ? 1 : 0;
    return out;
  }

  private memberList(signal?: AbortSignal): Promise<Members> {
    this.members ??= this.readMembers(signal).catch((error: unknown) => {
      this.members = null;
      throw error;
    });
    return this.members;
  }

  private async readMembers(signal?: AbortSignal): Promise<Members> {
    const list: GroupMember[] = [];
    for (const r of eachRollout(this.analysis)) list.push(memberOf(r, false));
    if (!this.texts) return { list, keepsText: false };
    const texts: (string | null)[] = new Array<string | null>(list.length).fill(null);
    let chars = 0;
    for await (const chunk of this.texts.chunks(signal)) {
      for (let k = 0; k < chunk.rows.length; k++) {
        const response = chunk.texts[k]?.response ?? '';
        chars += response.length;
        if (chars > this.maxTextChars) return { list, keepsText: false };
        texts[chunk.rows[k] as number] = response;
      }
    }
    list.forEach((m, i) => {
      m.signals = { ...m.signals, text: texts[i] ?? null };
    });
    return { list, keepsText: true };
  }
}
