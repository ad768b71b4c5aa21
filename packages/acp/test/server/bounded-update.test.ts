import { methods, type SessionUpdate } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { boundedUpdate } from '../../src/server/bounded-update.js';
import { MAX_MESSAGE_BYTES } from '../../src/stdio/message-size.js';

/** The bytes of the line that sends `update`, as the SDK writes it. */
function lineBytes(update: SessionUpdate): number {
  const message = {
    jsonrpc: '2.0',
    method: methods.client.session.update,
    params: { sessionId: 'session-1', update },
  };
  return Buffer.byteLength(`${JSON.stringify(message)}\n`, 'utf8');
}

function toolOutput(text: string): SessionUpdate {
  return {
    sessionUpdate: 'tool_call_update',
    toolCallId: 'call-1',
    status: 'completed',
    content: [{ type: 'content', content: { type: 'text', text } }],
  };
}

function textOf(update: SessionUpdate): string {
  if (update.sessionUpdate === 'tool_call_update') {
    const [item] = update.content ?? [];
    return item?.type === 'content' && item.content.type === 'text' ? item.content.text : '';
  }
  if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') {
    return update.content.text;
  }
  return '';
}

describe('boundedUpdate', () => {
  it('sends an update within the limit as it is', () => {
    const update = toolOutput('A small output.');
    expect(boundedUpdate('session-1', update, 10_000)).toBe(update);
  });

  it('cuts a tool output that would be over the limit, saying how much is not shown', () => {
    const limit = 10_000;
    // Characters of every JSON cost: escaped, multi-byte, and pairs that must not be split.
    const text = 'a"\\\n\u0001é日👩‍👩‍👧'.repeat(2_000);
    const fitted = boundedUpdate('session-1', toolOutput(text), limit);
    const bytes = lineBytes(fitted);
    expect(bytes).toBeLessThanOrEqual(limit);
    expect(bytes).toBeGreaterThan(limit - 512);
    const shown = textOf(fitted);
    const [kept = '', note = ''] = shown.split('\n[… ');
    expect(text.startsWith(kept)).toBe(true);
    expect(kept.length).toBeGreaterThan(0);
    expect(note).toMatch(/^\d+ more characters not shown: .* limit of an ACP message\]$/);
    expect(Number(note.split(' ')[0])).toBe(text.length - kept.length);
    // No surrogate pair is split at the cut.
    expect(Buffer.from(kept, 'utf8').toString('utf8')).toBe(kept);
  });

  it('cuts a message chunk too, and drops a tool call input that alone is too large', () => {
    const chunk: SessionUpdate = {
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: 'x'.repeat(50_000) },
    };
    expect(lineBytes(boundedUpdate('session-1', chunk, 10_000))).toBeLessThanOrEqual(10_000);
    const call: SessionUpdate = {
      sessionUpdate: 'tool_call',
      toolCallId: 'call-1',
      title: 'A tool',
      kind: 'other',
      status: 'in_progress',
      rawInput: { text: 'x'.repeat(50_000) },
    };
    const fitted = boundedUpdate('session-1', call, 10_000);
    expect(fitted).toEqual({ ...call, rawInput: undefined });
    expect(lineBytes(fitted)).toBeLessThanOrEqual(10_000);
  });

  it('keeps a huge tool output under the 32 MiB an ACP message may be', () => {
    const text = 'x'.repeat(MAX_MESSAGE_BYTES + 1_000_000);
    const fitted = boundedUpdate('session-1', toolOutput(text));
    expect(lineBytes(fitted)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    expect(textOf(fitted).length).toBeGreaterThan(MAX_MESSAGE_BYTES - 1_000);
  });

  it('shows a diff too large to send from its first change, after a note, and keeps the line that says who decided', () => {
    const oldText = `${Array.from({ length: 2_000 }, (_, line) => `\u0001 line ${line}`).join('\n')}\n`;
    const newText = oldText.replace('\u0001 line 1500\n', '\u0001 line fifteen hundred\n');
    const update: SessionUpdate = {
      sessionUpdate: 'tool_call_update',
      toolCallId: 'call-1',
      status: 'in_progress',
      content: [
        { type: 'content', content: { type: 'text', text: 'Allowed once by you' } },
        { type: 'diff', path: '/work/a.txt', oldText, newText },
      ],
    };
    const fitted = boundedUpdate('session-1', update, 10_000);
    expect(lineBytes(fitted)).toBeLessThanOrEqual(10_000);
    if (fitted.sessionUpdate !== 'tool_call_update') throw new Error('not a tool call update');
    const [decided, note, diff] = fitted.content ?? [];
    expect(decided).toEqual({
      type: 'content',
      content: { type: 'text', text: 'Allowed once by you' },
    });
    expect(note).toMatchObject({ type: 'content', content: { type: 'text' } });
    expect(JSON.stringify(note)).toContain(
      'This change is too large to show whole (the update would be over the 0.1 MiB limit',
    );
    expect(JSON.stringify(note)).toContain('Shown from line 1498: ');
    if (diff?.type !== 'diff') throw new Error('no diff');
    expect(diff.path).toBe('/work/a.txt');
    expect(diff.oldText?.startsWith('\u0001 line 1497\n')).toBe(true);
    expect(diff.newText).toContain('\u0001 line fifteen hundred\n');
  });
});
