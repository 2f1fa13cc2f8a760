import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodedToRaw, locateString, stringEnd } from '../../../../src/core/read/rawJson';
import { rawStepSpans } from '../../../../src/core/report/fileAnalysis';
import { splitSteps } from '../../../../src/core/steps/splitSteps';
import { keepResponses } from '../../../../src/core/read/rawEdit';

/** The raw slice of a step, decoded, must equal the step's text. */
function decodeSlice(raw: string, start: number, end: number): string {
  return JSON.parse(`"${raw.slice(start, end)}"`) as string;
}

describe('step offsets in the raw line', () => {
  it('escapes, quotes, backslashes, \\u escapes and surrogate pairs map exactly', () => {
    const response = 'Step one: "quoted" \\ back\n\nStep 2: tab\there é 😀 \u2028 done\n\n  Step 3: x = \\frac{1}{2}  ';
    const raw = JSON.stringify({ prompt: 'p "x"', response, n: 1 }).replace('é', '\\u00e9').replace('😀', '\\ud83d\\ude00');
    const steps = splitSteps(response, 'double-newline');
    const spans = rawStepSpans(raw, { responsePath: ['response'], responseShift: 0 }, steps)!;
    expect(steps.length).toBe(3);
    spans.forEach((s, i) => expect(decodeSlice(raw, s.start, s.end)).toBe(steps[i]!.text));
  });

  it('nested paths: grouped arrays and chat messages', () => {
    const raw = JSON.stringify({ prompt: 'q', responses: ['a\n\nb', 'c "d"\n\ne'], messages: [{ role: 'user', content: 'u' }, { role: 'assistant', content: 'x\\y\n\nz' }] });
    const loc = locateString(raw, ['responses', 1])!;
    expect(decodeSlice(raw, loc.start, loc.end)).toBe('c "d"\n\ne');
    const chat = locateString(raw, ['messages', 1, 'content'])!;
    expect(decodeSlice(raw, chat.start, chat.end)).toBe('x\\y\n\nz');
    expect(locateString(raw, ['responses', 5])).toBeNull();
    expect(locateString(raw, ['missing'])).toBeNull();
  });

  it('property: any string round-trips through JSON.stringify', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        const response = `${a}\n\n${b}`;
        const raw = JSON.stringify({ k: 'v', response });
        const steps = splitSteps(response, 'double-newline');
        const spans = rawStepSpans(raw, { responsePath: ['response'], responseShift: 0 }, steps)!;
        spans.forEach((s, i) => expect(decodeSlice(raw, s.start, s.end)).toBe(steps[i]!.text));
      }),
    );
  });

  it('property: the string scan that jumps from quote to quote and over plain text finds what a scan of every character finds', () => {
    // The scans as they were, one character at a time: what the faster ones must agree with on any text, well formed or not.
    const slowStringEnd = (raw: string, quote: number): number => {
      for (let i = quote + 1; i < raw.length; i++) {
        if (raw.charCodeAt(i) === 92) i++;
        else if (raw.charCodeAt(i) === 34) return i;
      }
      return raw.length;
    };
    const slowDecodedToRaw = (raw: string, loc: { start: number; end: number }, offsets: number[]): number[] => offsets.map((want) => {
      let r = loc.start;
      let decoded = 0;
      for (; decoded < want && r < loc.end; decoded++) r += raw.charCodeAt(r) === 92 ? (raw.charCodeAt(r + 1) === 117 ? 6 : 2) : 1;
      return decoded >= want ? r : loc.end;
    });
    const piece = fc.constantFrom('a', 'bc ', '"', '\\', '\\"', '\\\\', '\\n', '\\u00e9', 'é', '😀', '}', ',');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.array(fc.nat(60), { maxLength: 8 }), (pieces, offsets) => {
        const raw = `{"r":"${pieces.join('')}`;
        const end = slowStringEnd(raw, 5);
        expect(stringEnd(raw, 5)).toBe(end);
        const loc = { start: 6, end };
        expect(decodedToRaw(raw, loc, offsets)).toEqual(slowDecodedToRaw(raw, loc, offsets));
      }),
      { numRuns: 2000 },
    );
  });

  it('decodedToRaw maps the end of the string to the closing quote', () => {
    const raw = '{"r":"a\\nb"}';
    const loc = locateString(raw, ['r'])!;
    expect(decodedToRaw(raw, loc, [0, 1, 2, 3])).toEqual([6, 7, 9, 10]);
  });
});

describe('keeping some responses of a grouped line', () => {
  it('parallel arrays keep the same elements; everything else stays byte for byte', () => {
    const raw = '{"uid": "u1", "responses": ["a", "b \\"x\\"", "c"], "score": [1.0, 0, 1.0], "step_scores": [[0.5], [0.25, 1e-3], []], "tags": ["t"], "n": 3}';
    const out = keepResponses(raw, new Set([0, 2]), { arrays: [['responses'], ['score'], ['step_scores']] });
    expect(out).toBe('{"uid": "u1", "responses": ["a", "c"], "score": [1.0, 1.0], "step_scores": [[0.5], []], "tags": ["t"], "n": 3}');
    expect(JSON.parse(out).responses).toEqual(['a', 'c']);
  });

  it('keyed solutions drop the members not kept', () => {
    const raw = '{"question": "q", "ground_truth": "A: 1", "m1": {"is_correct": true, "solution": "x"}, "m2": {"is_correct": false, "solution": "y"}}';
    const out = keepResponses(raw, new Set([1]), { keyedMembers: ['m1', 'm2'] });
    expect(JSON.parse(out)).toEqual({ question: 'q', ground_truth: 'A: 1', m2: { is_correct: false, solution: 'y' } });
  });

  it('trims only the arrays it is given, found under the last of duplicate keys, and nothing else', () => {
    const raw = '{"question": "q", "choices": ["1", "2", "3", "4"], "responses": ["d1", "d2", "d3", "d4"], "responses": ["a", "b", "c", "d"], "score": [1, 0, 1, 0]}';
    const out = keepResponses(raw, new Set([0, 2]), { arrays: [['responses'], ['score']] });
    expect(out).toBe('{"question": "q", "choices": ["1", "2", "3", "4"], "responses": ["d1", "d2", "d3", "d4"], "responses": ["a", "c"], "score": [1, 1]}');
    expect(JSON.parse(out).responses).toEqual(['a', 'c']);
  });
});

describe('a key written twice (JSON.parse keeps the last)', () => {
  it('offsets point at the parsed value, not the decoy written before it', () => {
    const raw = '{"response": "decoy\\n\\ntext", "prompt": "p", "response": "real\\n\\nsteps"}';
    const steps = splitSteps(JSON.parse(raw).response as string, 'double-newline');
    const spans = rawStepSpans(raw, { responsePath: ['response'], responseShift: 0 }, steps)!;
    expect(spans.map((s) => decodeSlice(raw, s.start, s.end))).toEqual(['real', 'steps']);
    expect(spans[0]!.start).toBeGreaterThan(raw.indexOf('"prompt"'));
  });
});
