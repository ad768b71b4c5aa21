// A session file is read line by line as `readSessionLine` reads a line: a line as dsh writes it
// takes a shorter road (checked once and kept), and must come out the same as by the long one,
// whatever it holds.
import { describe, expect, it } from 'vitest';
import { readSessionFile } from '../../src/session/read-session-file.js';
import { isSessionError } from '../../src/session/session-error.js';
import { headerLine, readSessionLine } from '../../src/session/session-line.js';

const HEADER = headerLine({
  id: '0b5f8a6e-3c1d-4e2f-9a7b-6c5d4e3f2a1b',
  cwd: '/',
  createdAt: '2026-01-01T00:00:00.000Z',
  title: '',
});
const END = '{"v":1,"type":"turn-end","reason":"finished"}\n';

/** Lines that start a turn, as written or changed by something other than dsh. */
const PROMPTS = [
  '{"v":1,"type":"prompt","text":"as written"}',
  '{"v":1,"type":"prompt","text":"café ☕"}',
  '{"v":1,"type":"prompt","text":"x","surplus":1}',
  '{"v":1,"type":"prompt","text":"x","__proto__":{"text":"y"}}',
  '{"v":1,"type":"prompt","text":"x","v":1}',
  '{"type":"prompt","text":"x","v":1}',
  '{ "v": 1, "type": "prompt", "text": "x" }',
  // What a line as written looks like once its version is blanked out, with no version: none.
  '      {"type":"prompt","text":"x"}',
  '      {"v":1,"type":"prompt","text":"x"}',
  '{"v":1,"type":"prompt","text":"x","v":2}',
  '{"v":2,"type":"prompt","v":1,"text":"x"}',
  '{"v":1,"type":"prompt","text":2}',
  '{"v":1,"type":"prompt"}',
  '{"v":1,"type":"session","id":"0b5f8a6e-3c1d-4e2f-9a7b-6c5d4e3f2a1b","cwd":"/","createdAt":"2026-01-01T00:00:00.000Z","title":""}',
  '{"v":1,"type":"prompt","text":"x"',
];

/** Lines inside a turn, after its prompt. */
const STEPS = [
  '{"v":1,"type":"assistant","text":"t","toolCalls":[]}',
  '{"v":1,"type":"assistant","text":"t","reasoning":{"text":"r","surplus":true}}',
  '{"v":1,"type":"assistant","text":"t","toolCalls":[{"id":"","name":"n","arguments":"{}"}]}',
  '{"v":1,"type":"turn-end","reason":"finished","interrupted":false}',
  '{"v":1,"type":"turn-end","reason":"finished","error":{"name":"E","code":"X","message":"m"}}',
];

function read(lines: string): ReturnType<typeof readSessionFile> {
  return readSessionFile('/state/sessions/s.jsonl', Buffer.from(lines, 'utf8'));
}

/** What the file reader makes of `line` where the line reader says `expected`. */
function expectSame(lines: string, line: string, at: number): void {
  const expected = readSessionLine(line);
  if ('entry' in expected) {
    const { entries } = read(lines);
    expect(entries[at], line).toEqual(expected.entry);
    expect(Object.hasOwn(entries[at] as object, '__proto__')).toBe(false);
    expect(Object.hasOwn(entries[at] as object, 'v')).toBe(false);
    return;
  }
  let thrown: unknown;
  try {
    read(lines);
  } catch (error) {
    thrown = error;
  }
  expect(isSessionError(thrown) && thrown.code, line).toBe('SESSION_INVALID');
  expect(String((thrown as Error).message)).toContain(`line ${at + 2}`);
}

describe('reading a session file', () => {
  it('reads each first line of a turn as the line reader does', () => {
    for (const line of PROMPTS) expectSame(`${HEADER}${line}\n${END}`, line, 0);
  });

  it('reads each line inside a turn as the line reader does', () => {
    const prompt = '{"v":1,"type":"prompt","text":"p"}';
    for (const line of STEPS) expectSame(`${HEADER}${prompt}\n${line}\n`, line, 1);
  });

  it('keeps a line as written as it was parsed, and copies one holding a field to leave out', () => {
    const { entries } = read(`${HEADER}{"v":1,"type":"prompt","text":"p"}\n${END}`);
    expect(Object.isFrozen(entries[0])).toBe(false);
    const surplus = read(`${HEADER}{"v":1,"type":"prompt","text":"p","surplus":1}\n${END}`);
    expect(Object.isFrozen(surplus.entries[0])).toBe(true);
  });
});
