// A line of a session file is parsed once and checked where it lies: the entry it gives is the
// one the copying reader (for a caller's value) makes of the same line, whatever the line holds.
import { describe, expect, it } from 'vitest';
import type { ConversationEntry } from '../../src/loop/conversation-entry.js';
import { readConversationEntry } from '../../src/loop/read-conversation-entry.js';
import { entryLine, readSessionLine } from '../../src/session/session-line.js';

const ENTRIES: ConversationEntry[] = [
  { type: 'prompt', text: 'Which database?' },
  {
    type: 'assistant',
    text: 'One question.',
    toolCalls: [{ id: 'call_1', name: 'ask_user_question', arguments: '{}' }],
    reasoning: { text: 'Unsaid.', field: 'reasoning_content' },
  },
  { type: 'posed', toolCallId: 'call_1', kind: 'question' },
  {
    type: 'tool-result',
    toolCallId: 'call_1',
    result: {
      ok: true,
      output: 'SQLite',
      answer: { answer: 'SQLite', option: { label: 'SQLite', value: 'sqlite', recommended: true } },
      answers: {
        answers: [{ id: 'db', answers: ['SQLite'], options: [{ label: 'SQLite' }], custom: 'x' }],
      },
      details: {
        edit: { path: '/a', oldText: null, newText: 'b' },
        exit: { code: 0, signal: null },
        blocked: 'the network',
      },
    },
  },
  {
    type: 'approval',
    toolCallId: 'call_2',
    description: {
      kind: 'edit',
      title: 'Edit a',
      locations: [{ path: '/a', line: 3 }],
      edit: { path: '/a', oldText: 'a', newText: 'b' },
      command: {
        command: 'ls',
        cwd: '/',
        sandbox: { confinement: 'network', note: 'Sandboxed, with the network.' },
      },
    },
    outcome: { allowed: true, decidedBy: { kind: 'person', choice: 'allow_once', rule: 'r' } },
  },
  {
    type: 'tool-result',
    toolCallId: 'call_2',
    result: { ok: false, output: 'no', error: { name: 'E', code: 'X', message: 'm' } },
  },
  { type: 'turn-end', reason: 'cancelled', interrupted: true },
  { type: 'turn-end', reason: 'error', error: { name: 'E', code: 'X', message: 'm' } },
];

/** Every object and list inside `value`, with the path to it. */
function* objectsOf(
  value: unknown,
  path: (string | number)[] = [],
): Generator<(string | number)[]> {
  if (typeof value !== 'object' || value === null) return;
  yield path;
  for (const [key, inner] of Object.entries(value)) {
    yield* objectsOf(inner, [...path, Array.isArray(value) ? Number(key) : key]);
  }
}

/** The line of `entry` with `extra` added to the object at `path`. */
function lineWith(entry: ConversationEntry, path: (string | number)[], extra: object): string {
  const copy = JSON.parse(JSON.stringify(entry)) as Record<string, unknown>;
  let target: unknown = copy;
  for (const key of path) target = (target as Record<string | number, unknown>)[key];
  if (!Array.isArray(target)) Object.assign(target as object, extra);
  return entryLine(copy as unknown as ConversationEntry).slice(0, -1);
}

describe('reading a line of a session file', () => {
  it('gives each entry as written, without its version', () => {
    for (const entry of ENTRIES) {
      expect(readSessionLine(entryLine(entry).slice(0, -1))).toEqual({ entry });
    }
  });

  it('leaves out, at any depth, what the copying reader leaves out', () => {
    for (const entry of ENTRIES) {
      for (const path of objectsOf(entry)) {
        for (const extra of [{ surplus: 1 }, { v: 1 }, { surplus: { v: 1 } }]) {
          const line = lineWith(entry, path, extra);
          const read = readSessionLine(line);
          const expected = readConversationEntry(JSON.parse(line));
          expect(read, `${line}`).toEqual(expected);
          expect(read).toEqual({ entry });
        }
      }
    }
  });

  it('keeps no field named __proto__', () => {
    const read = readSessionLine('{"v":1,"type":"prompt","text":"x","__proto__":{"text":"y"}}');
    expect(read).toEqual({ entry: { type: 'prompt', text: 'x' } });
    expect(Object.hasOwn((read as { entry: object }).entry, '__proto__')).toBe(false);
    const ended = readSessionLine(
      '{"v":1,"type":"turn-end","reason":"cancelled","interrupted":false,"__proto__":{"polluted":1}}',
    );
    expect(ended).toEqual({ entry: { type: 'turn-end', reason: 'cancelled' } });
    expect(Object.hasOwn((ended as { entry: object }).entry, '__proto__')).toBe(false);
  });

  it('normalises what means nothing: an empty list of calls, interrupted: false', () => {
    expect(readSessionLine('{"v":1,"type":"assistant","text":"t","toolCalls":[]}')).toEqual({
      entry: { type: 'assistant', text: 't' },
    });
    expect(
      readSessionLine('{"v":1,"type":"turn-end","reason":"finished","interrupted":false}'),
    ).toEqual({ entry: { type: 'turn-end', reason: 'finished' } });
    expect(
      readSessionLine(
        '{"v":1,"type":"turn-end","reason":"finished","interrupted":false,"surplus":1}',
      ),
    ).toEqual({ entry: { type: 'turn-end', reason: 'finished' } });
  });

  it('reads the version wherever it is, and the last of two', () => {
    expect(readSessionLine('{"type":"prompt","text":"x","v":1}')).toEqual({
      entry: { type: 'prompt', text: 'x' },
    });
    expect(readSessionLine('{ "v": 1, "type": "prompt", "text": "x" }')).toEqual({
      entry: { type: 'prompt', text: 'x' },
    });
    expect(readSessionLine('{"v":1,"type":"prompt","text":"x","v":2}')).toMatchObject({
      newer: true,
    });
    expect(readSessionLine('{"v":2,"type":"prompt","v":1,"text":"x"}')).toEqual({
      entry: { type: 'prompt', text: 'x' },
    });
    expect(readSessionLine('{"type":"prompt","text":"x"}')).toEqual({
      problem: 'its format version is not 1',
    });
    expect(readSessionLine('{"v":1,}')).toEqual({ problem: 'it is not JSON' });
    expect(readSessionLine('{"v":1,"type":"prompt","text":2}')).toEqual({
      problem: 'prompt.text must be a string',
    });
  });
});
