// The one declaration of a conversation entry reads a caller's value (anything: getters, a
// Proxy) and a parsed line alike: each field read once, a frozen copy, and a problem named by
// where it is.
import { describe, expect, it } from 'vitest';
import type { ConversationEntry } from '../../src/loop/conversation-entry.js';
import {
  readConversationEntry,
  readParsedConversationEntry,
} from '../../src/loop/read-conversation-entry.js';

const APPROVAL: ConversationEntry = {
  type: 'approval',
  toolCallId: 'call_1',
  description: {
    kind: 'execute',
    title: 'Run ls',
    locations: [{ path: '/w', line: 0 }],
    command: { command: 'ls', cwd: '/w', sandbox: { confinement: 'none', note: 'Not sandboxed.' } },
  },
  outcome: { allowed: true, decidedBy: { kind: 'person', choice: 'allow_once' } },
};

/** `value` behind Proxies at every depth, counting each read of each field by its path. */
function counted(value: unknown, reads: Map<string, number>, path = ''): unknown {
  if (typeof value !== 'object' || value === null) return value;
  return new Proxy(value, {
    get(target, key, receiver) {
      const inner = Reflect.get(target, key, receiver) as unknown;
      if (typeof key !== 'string' || (Array.isArray(target) && key === 'length')) return inner;
      const at = `${path}.${key}`;
      reads.set(at, (reads.get(at) ?? 0) + 1);
      return counted(inner, reads, at);
    },
  });
}

function deeplyFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(deeplyFrozen);
}

describe('the conversation entry declaration', () => {
  it('reads each field of a caller’s entry once, into a frozen copy', () => {
    const reads = new Map<string, number>();
    const read = readConversationEntry(counted(APPROVAL, reads));
    expect(read).toEqual({ entry: APPROVAL });
    expect(deeplyFrozen((read as { entry: unknown }).entry)).toBe(true);
    expect([...reads].filter(([, count]) => count > 1)).toEqual([]);
    expect(reads.get('.outcome.decidedBy.choice')).toBe(1);
  });

  it('is not fooled by a getter that answers otherwise the second time', () => {
    let asked = 0;
    const shifty = {
      get type() {
        asked++;
        return asked === 1 ? 'prompt' : 'approval';
      },
      text: 'hello',
    };
    expect(readConversationEntry(shifty)).toEqual({ entry: { type: 'prompt', text: 'hello' } });
    expect(asked).toBe(1);
  });

  it('lets an error a getter throws go on, and is whole again after it', () => {
    const failing = {
      type: 'prompt',
      get text(): string {
        throw new RangeError('from the getter');
      },
    };
    expect(() => readConversationEntry(failing)).toThrow(RangeError);
    expect(readConversationEntry({ type: 'prompt', text: 3 })).toEqual({
      problem: 'prompt.text must be a string',
    });
  });

  it('names the place of a problem found inside a getter’s own read as its own', () => {
    const nested = {
      type: 'tool-result',
      get toolCallId(): string {
        // A read started inside a read: its problem is its own, and the outer read goes on.
        expect(readConversationEntry({ type: 'posed', toolCallId: 'c', kind: 'x' })).toEqual({
          problem: 'posed.kind must be one of question, approval',
        });
        return 'call_1';
      },
      result: { ok: false, output: 'no', error: { name: 'E', code: 'X', message: 7 } },
    };
    expect(readConversationEntry(nested)).toEqual({
      problem: 'result.error.message must be a string',
    });
  });

  it('names where a problem is, at any depth', () => {
    const at = (value: unknown) => readParsedConversationEntry(JSON.parse(JSON.stringify(value)));
    expect(at(7)).toEqual({ problem: 'the entry must be an object' });
    expect(at({ type: 'nothing' })).toEqual({
      problem: 'type must be one of prompt, assistant, approval, posed, tool-result, turn-end',
    });
    expect(at({ ...APPROVAL, toolCallId: 1 })).toEqual({
      problem: 'approval.toolCallId must be a string',
    });
    const description = APPROVAL.type === 'approval' ? APPROVAL.description : undefined;
    expect(
      at({ ...APPROVAL, description: { ...description, locations: [{ path: '/w', line: -1 }] } }),
    ).toEqual({
      problem: 'description.locations[0].line must be a whole number',
    });
    expect(at({ ...APPROVAL, outcome: { allowed: false, decidedBy: { kind: 'god' } } })).toEqual({
      problem: 'outcome.decidedBy.kind must be one of person, rule, policy, unanswered',
    });
    expect(
      at({
        ...APPROVAL,
        outcome: { allowed: true, decidedBy: { kind: 'person', choice: 'reject_once' } },
      }),
    ).toEqual({ problem: 'outcome.allowed does not match the person’s choice' });
    expect(at({ type: 'turn-end', reason: 'later' })).toEqual({
      problem: 'turn-end.reason must be one of finished, cancelled, step-limit, error',
    });
    expect(at({ type: 'turn-end', reason: 'error' })).toEqual({
      problem: 'turn-end.error must be an object',
    });
    expect(
      at({ type: 'turn-end', reason: 'finished', error: { name: 'E', code: 'X', message: 'm' } }),
    ).toEqual({ problem: 'a turn that finished or was cancelled has no error' });
    expect(
      at({ type: 'assistant', text: 't', toolCalls: [{ id: '', name: 'n', arguments: '' }] }),
    ).toEqual({
      problem: 'toolCalls[0].id must be a string that is not empty',
    });
    expect(at({ type: 'assistant', toolCalls: 'none', text: 't' })).toEqual({
      problem: 'assistant.toolCalls must be a list',
    });
  });

  it('keeps a parsed entry as it is, and copies one that holds a field to leave out', () => {
    const parsed = JSON.parse(JSON.stringify(APPROVAL)) as object;
    expect(readParsedConversationEntry(parsed)).toEqual({ entry: parsed });
    expect((readParsedConversationEntry(parsed) as { entry: object }).entry).toBe(parsed);
    const surplus = JSON.parse('{"type":"prompt","surplus":1,"text":"x"}') as object;
    const read = readParsedConversationEntry(surplus) as { entry: object };
    expect(read.entry).not.toBe(surplus);
    expect(read.entry).toEqual({ type: 'prompt', text: 'x' });
    expect(Object.isFrozen(read.entry)).toBe(true);
  });

  it('keeps a parsed entry only as reading it field by field would: nested fields and keys alike', () => {
    const ASSISTANT = {
      type: 'assistant',
      text: 't',
      toolCalls: [{ id: 'c', name: 'n', arguments: '{}' }],
      reasoning: { text: 'r', field: 'reasoning_content' },
    };
    const RESULT = {
      type: 'tool-result',
      toolCallId: 'c',
      result: { ok: true, output: 'o', answer: { answer: 'a', option: { label: 'a' } } },
    };
    // Each a line as JSON text: a key such as `__proto__` is an own field only when parsed.
    const lines = [
      JSON.stringify(APPROVAL),
      JSON.stringify(ASSISTANT),
      JSON.stringify(RESULT),
      '{"type":"prompt","text":"x","__proto__":{"text":"y"}}',
      '{"type":"assistant","text":"t","toolCalls":[{"id":"c","name":"n","arguments":"{}","__proto__":1}]}',
      '{"type":"assistant","text":"t","toolCalls":[{"id":"c","name":"n","arguments":"{}","extra":1}]}',
      '{"type":"assistant","text":"t","toolCalls":[]}',
      '{"type":"assistant","text":"t","reasoning":{"text":"r","field":7}}',
      '{"type":"tool-result","toolCallId":"c","result":{"ok":true,"output":"o","answer":{"answer":"a","option":{"label":"a","x":0}}}}',
      '{"type":"tool-result","toolCallId":"c","result":{"ok":true,"output":"o","answer":{"answer":"a","option":{}}}}',
      '{"type":"tool-result","toolCallId":"c","result":{"ok":"true","output":"o"}}',
      '{"type":"turn-end","reason":"finished","interrupted":false}',
      '{"type":"turn-end","reason":"finished","interrupted":true}',
      '{"type":"turn-end","reason":"finished","error":null}',
      '{"type":"posed","toolCallId":"c","kind":"approval","state":"s"}',
      '{"type":"posed","toolCallId":"c","kind":"question","state":"s"}',
      `{"type":"approval","toolCallId":"c","description":{"kind":"read"},"outcome":{"allowed":true,"decidedBy":{"kind":"unanswered","code":"USER_INTERACTION_CANCELLED","message":"m"}}}`,
    ];
    for (const line of lines) {
      const kept = readParsedConversationEntry(JSON.parse(line));
      const copied = readConversationEntry(JSON.parse(line));
      expect(kept, line).toEqual(copied);
      if ('entry' in kept) {
        const parsed = JSON.parse(line) as object;
        const same = (readParsedConversationEntry(parsed) as { entry: object }).entry === parsed;
        // Kept as it is exactly when the copy holds every field it holds.
        const whole =
          JSON.stringify((copied as { entry: object }).entry) === JSON.stringify(parsed);
        expect(same, line).toBe(whole);
      }
    }
  });
});
