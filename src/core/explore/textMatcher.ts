/**
 * The explorer's full-text search: a literal, case-insensitive, or a regular expression run on RE2
 * (re2js), whose matching time is linear in the text whatever the pattern (`(a+)+$` included). A
 * pattern RE2 cannot express (backreferences, lookaround) is refused with RE2's own reason. A
 * literal is matched by the platform's engine: an escaped literal has nothing to backtrack over.
 */
import type { RE2JS } from 're2js';
import type { TextQuery } from './explorerQuery';
import { QueryError } from './explorerQuery';
import { capText } from '../presentation/capText';

/** A match: [start, end) in UTF-16 code units of the text. */
export type MatchRange = [number, number];

/** Finds a query's matches in one text. */
export interface TextMatcher {
  /** The first match, or null. */
  first(text: string): MatchRange | null;
  /** Up to `max` non-empty matches, in order. */
  all(text: string, max: number): MatchRange[];
}

/**
 * re2js is loaded on the first regex search, not with this module (its tables cost a few ms at
 * start). `require` is declared here rather than taken from Node's types, which core does not
 * use; every bundle and the test runner provide it.
 */
declare const require: (id: 're2js') => typeof import('re2js');
let engine: typeof RE2JS | null = null;

/** The matcher of a search; throws a `QueryError` for a pattern RE2 cannot run. */
export function compileTextQuery(query: TextQuery): TextMatcher {
  return query.mode === 'plain' ? literalMatcher(query.text) : re2Matcher(query.text);
}

function literalMatcher(text: string): TextMatcher {
  const escaped = text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  const pattern = new RegExp(escaped, 'giu');
  return {
    first(subject) {
      pattern.lastIndex = 0;
      const m = pattern.exec(subject);
      return m ? [m.index, m.index + m[0].length] : null;
    },
    all(subject, max) {
      const found: MatchRange[] = [];
      pattern.lastIndex = 0;
      for (let m = pattern.exec(subject); m && found.length < max; m = pattern.exec(subject)) found.push([m.index, m.index + m[0].length]);
      return found;
    },
  };
}

function re2Matcher(source: string): TextMatcher {
  let compiled: RE2JS;
  try {
    compiled = (engine ??= require('re2js').RE2JS).compile(source);
  } catch (error) {
    const reason = error instanceof Error ? error.message : typeof (error as { error?: unknown }).error === 'string' ? String((error as { error: string }).error) : 'not a regular expression';
    throw new QueryError(`the pattern ${JSON.stringify(capText(source, 80))} cannot be used: ${capText(reason, 200)} (search runs on RE2, a linear-time engine: no backreferences or lookaround)`);
  }
  return {
    first(subject) {
      const m = compiled.matcher(subject);
      return m.find() ? [m.start(), m.end()] : null;
    },
    all(subject, max) {
      const found: MatchRange[] = [];
      const m = compiled.matcher(subject);
      let from = 0;
      while (found.length < max && from <= subject.length && m.find(from)) {
        const start = m.start();
        const end = m.end();
        if (end > start) found.push([start, end]);
        // An empty match moves on by one character, so the loop always ends.
        from = end > start ? end : end + 1;
      }
      return found;
    },
  };
}
