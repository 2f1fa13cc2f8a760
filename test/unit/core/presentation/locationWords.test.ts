import { describe, expect, test } from 'vitest';
import { namesResponse, recordLocation, responseWords, rolloutLocation } from '../../../../src/core/presentation/locationWords';

describe('a rollout\'s place in words', () => {
  test('a record holding one response is named by its line or array item alone', () => {
    expect(rolloutLocation({ line: 17, index: 0 })).toBe('line 17');
    expect(rolloutLocation({ line: 17, index: 0, count: 1 })).toBe('line 17');
    expect(rolloutLocation({ line: 1, item: 3, index: 0 })).toBe('item 3 (line 1)');
  });

  test('a response of a grouped line is counted from 1, with how many the line holds', () => {
    // The decision line's `index` 3 is the fourth response: every surface says 4.
    expect(rolloutLocation({ line: 17, index: 3, count: 16 })).toBe('line 17, response 4 of 16');
    expect(responseWords({ index: 3, count: 16 })).toBe('response 4 of 16');
  });

  test('the first response of a grouped line is named too, not taken for the whole line', () => {
    expect(rolloutLocation({ line: 17, index: 0, count: 16 })).toBe('line 17, response 1 of 16');
    expect(rolloutLocation({ line: 17, index: 0, isGrouped: true })).toBe('line 17, response 1');
  });

  test('without a count it says the response alone, never a wrong total', () => {
    expect(rolloutLocation({ line: 17, index: 3 })).toBe('line 17, response 4');
    expect(responseWords({ index: 5, count: 2 })).toBe('response 6');
  });

  test('an array item with several responses keeps its item and line', () => {
    expect(rolloutLocation({ line: 1, item: 2, index: 1, count: 4 })).toBe('item 2 (line 1), response 2 of 4');
    expect(recordLocation({ line: 1, item: 2 })).toBe('item 2 (line 1)');
  });

  test('which places name a response', () => {
    expect(namesResponse({ index: 0 })).toBe(false);
    expect(namesResponse({ index: 0, count: 2 })).toBe(true);
    expect(namesResponse({ index: 1 })).toBe(true);
    expect(namesResponse({ index: 0, isGrouped: true })).toBe(true);
    // A harness line with a single response is the line, whatever its format.
    expect(namesResponse({ index: 0, count: 1, isGrouped: true })).toBe(false);
  });
});
