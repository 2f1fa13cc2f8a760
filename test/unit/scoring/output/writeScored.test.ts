import { describe, expect, it } from 'vitest';
import { withStepScores } from '../../../../src/scoring/output/writeScored';

const META = { scorer: 'http:qwen-prm@prm', model: 'prm', profile: 'qwen-prm', provider: 'http://127.0.0.1:8000' };
const META_COMPACT = '{"scorer":"http:qwen-prm@prm","model":"prm","profile":"qwen-prm","provider":"http://127.0.0.1:8000"}';
const META_SPACED = '{"scorer": "http:qwen-prm@prm", "model": "prm", "profile": "qwen-prm", "provider": "http://127.0.0.1:8000"}';

describe('withStepScores', () => {
  it('appends both keys to a compact line and leaves every other byte alone', () => {
    const line = '{"prompt":"2+2?","response":"4","score":1.0,"extra":{"k":[1,2,{"x":"}"}]}}';
    const out = withStepScores(line, [0.9, null], META);
    expect(out).toBe(`${line.slice(0, -1)},"step_scores":[0.9,null],"step_scores_meta":${META_COMPACT}}`);
    expect(JSON.parse(out).extra).toEqual({ k: [1, 2, { x: '}' }] });
  });

  it("follows Python's spaced style", () => {
    const line = '{"input": "q", "output": "a", "score": 0}';
    expect(withStepScores(line, [0.5], META)).toBe(`{"input": "q", "output": "a", "score": 0, "step_scores": [0.5], "step_scores_meta": ${META_SPACED}}`);
  });

  it('replaces existing values in place, keeping key order', () => {
    const line = '{"step_scores": [0.1, 0.2, 0.3], "prompt": "p", "step_scores_meta": {"scorer": "old"}, "z": 1}';
    expect(withStepScores(line, [0.7], META)).toBe(`{"step_scores": [0.7], "prompt": "p", "step_scores_meta": ${META_SPACED}, "z": 1}`);
  });

  it('matches an existing key written with escapes', () => {
    const line = '{"step\\u005fscores":[1],"a":2}';
    expect(withStepScores(line, [0.25], META)).toBe(`{"step\\u005fscores":[0.25],"a":2,"step_scores_meta":${META_COMPACT}}`);
  });

  it('keeps unicode, escapes, NaN literals and number spellings untouched', () => {
    const line =
      '{"prompt":"∫ x² dx — \\"quoted\\" \\\\ back\\nslash \\ud83d\\ude00 😀","response":"a}b]c","reward":NaN,"v":-Infinity,"n":1.50,"e":1E+3,"t":true,"nil":null}';
    const out = withStepScores(line, [0.1, 0.2], META);
    expect(out.startsWith(line.slice(0, -1))).toBe(true);
    expect(out.endsWith(`,"step_scores":[0.1,0.2],"step_scores_meta":${META_COMPACT}}`)).toBe(true);
  });

  it('writes grouped lines as one array per response, null for an unscored response', () => {
    const line = '{"prompt":"p","responses":["a","b","c"],"scores":[1,0,1]}';
    const out = withStepScores(line, [[0.9, 0.8], null, [0.1]], META);
    expect(JSON.parse(out).step_scores).toEqual([[0.9, 0.8], null, [0.1]]);
  });

  it('writes a non-finite score as null', () => {
    expect(withStepScores('{"a":1}', [Number.NaN, Number.POSITIVE_INFINITY, 0], { scorer: 'x' })).toBe(
      '{"a":1,"step_scores":[null,null,0],"step_scores_meta":{"scorer":"x"}}',
    );
  });

  it('handles an empty object, surrounding whitespace, a BOM and CRLF', () => {
    expect(withStepScores('{}', [], { scorer: 'x' })).toBe('{"step_scores":[],"step_scores_meta":{"scorer":"x"}}');
    expect(withStepScores('\uFEFF  { "a" : 1 }  \r', [1], { scorer: 'x' })).toBe(
      '\uFEFF  { "a" : 1, "step_scores": [1], "step_scores_meta": {"scorer": "x"} }  \r',
    );
  });

  it('refuses lines that are not one JSON object', () => {
    expect(() => withStepScores('[1,2]', [], { scorer: 'x' })).toThrow(/expected a JSON object/);
    expect(() => withStepScores('{"a":"unterminated}', [], { scorer: 'x' })).toThrow(/unterminated string/);
    expect(() => withStepScores('{"a":[1,2}', [], { scorer: 'x' })).toThrow(/unexpected "}"/);
    expect(() => withStepScores('{"a":1} {"b":2}', [], { scorer: 'x' })).toThrow(/after the object/);
    expect(() => withStepScores('{"a" 1}', [], { scorer: 'x' })).toThrow(/expected ":"/);
  });
});
