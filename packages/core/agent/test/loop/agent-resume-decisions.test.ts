import { describe, expect, it } from 'vitest';
import type { ConversationEntry } from '../../src/loop/conversation-entry.js';
import { restoreConversation } from '../../src/loop/restore-conversation.js';
import { collect, endOf, scriptedAgent } from '../support/harness.js';
import {
  allowedBeforeTheStop,
  allowedOnce,
  COMMAND,
  codeOf,
  countedTool,
  READ,
  RESUMED_ENTRIES,
  recorder,
  resumedAgent,
  SCRIPT,
} from '../support/resumed-conversations.js';

describe('a turn that stopped while something waited for the person', () => {
  it('runs again a read allowed before the stop only when the rules allow it now without asking', async () => {
    const conversation = allowedBeforeTheStop('r', 'read', READ);
    // The default policy asks for every call: the stored "allowed" alone runs nothing.
    const asking = countedTool('read', READ);
    const first = resumedAgent(conversation, [], [asking]);
    endOf(await collect(first.agent.resume()));
    expect(asking.runs).toBe(0);
    expect(first.model.requests[0]?.messages.at(-1)).toMatchObject({
      error: { code: 'TOOL_INTERRUPTED' },
    });
    // Rules that allow the read without asking: it runs again (it changes nothing).
    const allowing = countedTool('read', READ);
    const stored = recorder();
    const second = scriptedAgent(SCRIPT, {
      agent: {
        tools: [allowing],
        conversation,
        recorder: stored.recorder,
        permissions: {
          decide: () => ({ decision: 'allow', decidedBy: { kind: 'policy', reason: 'reads' } }),
        } as never,
      },
    });
    endOf(await collect(second.agent.resume()));
    expect(allowing.runs).toBe(1);
    expect(second.provider.permissions).toHaveLength(0);
  });

  it('never runs twice a call that acts and was approved before the stop; a read runs again', async () => {
    const run = countedTool('run', COMMAND);
    const read = countedTool('read', READ);
    const stepCalls = [
      { id: 'c', name: 'run', arguments: '{}' },
      { id: 'r', name: 'read', arguments: '{}' },
    ];
    const conversation: ConversationEntry[] = [
      { type: 'prompt', text: 'Go.' },
      { type: 'assistant', text: '', toolCalls: stepCalls },
      { type: 'posed', toolCallId: 'c', kind: 'approval' },
      allowedOnce('c', COMMAND),
    ];
    const { agent, model, provider } = resumedAgent(
      conversation,
      [{ choice: 'allow_once' }],
      [run, read],
    );
    const events = await collect(agent.resume());
    endOf(events);
    expect(run.runs).toBe(0);
    expect(read.runs).toBe(1);
    const results = model.requests[0]?.messages.filter((m) => m.role === 'tool') ?? [];
    expect(results[0]).toMatchObject({ toolCallId: 'c', error: { code: 'TOOL_INTERRUPTED' } });
    expect(results[1]).toMatchObject({ toolCallId: 'r', content: 'read ran' });
    // The stored decision is shown again, not asked again: only the read was asked.
    expect(provider.permissions.map((request) => request.toolCallId)).toEqual(['r']);
    expect(events.filter((event) => event.type === 'tool-approval')).toHaveLength(2);
  });

  it('never takes a stored decision for a call the tool now describes otherwise', async () => {
    // The file says the command was a read, allowed: the tool says it runs a command.
    const run = countedTool('run', COMMAND);
    const conversation = allowedBeforeTheStop('c', 'run', READ);
    const { agent, model } = resumedAgent(conversation, [], [run]);
    endOf(await collect(agent.resume()));
    expect(run.runs).toBe(0);
    expect(model.requests[0]?.messages.at(-1)).toMatchObject({
      error: { code: 'TOOL_INTERRUPTED' },
    });
  });

  it('puts a waiting approval to the person again, and runs the command once, after it', async () => {
    const run = countedTool('run', COMMAND);
    const conversation: ConversationEntry[] = [
      { type: 'prompt', text: 'Go.' },
      { type: 'assistant', text: '', toolCalls: [{ id: 'c', name: 'run', arguments: '{}' }] },
      { type: 'posed', toolCallId: 'c', kind: 'approval' },
    ];
    const { agent, provider } = resumedAgent(conversation, [{ choice: 'allow_once' }], [run]);
    endOf(await collect(agent.resume()));
    expect(provider.permissions).toEqual([
      expect.objectContaining({ toolCallId: 'c', kind: 'execute' }),
    ]);
    expect(run.runs).toBe(1);
  });

  it('refuses a posed entry that does not fit where it is', () => {
    const [prompt, step] = RESUMED_ENTRIES.questionWaiting as [
      ConversationEntry,
      ConversationEntry,
    ];
    const posed = (toolCallId: string, kind: 'question' | 'approval'): ConversationEntry => ({
      type: 'posed',
      toolCallId,
      kind,
    });
    expect(() => restoreConversation([prompt, step, posed('c', 'question')], 'c')).toThrow(
      /is posed for "c", but "q" comes first/,
    );
    expect(() => restoreConversation([prompt, posed('q', 'question')], 'c')).toThrow(
      /no tool call waiting/,
    );
    const decided = allowedOnce('q', READ);
    expect(() => restoreConversation([prompt, step, decided, posed('q', 'approval')], 'c')).toThrow(
      /after it was decided/,
    );
    expect(() =>
      restoreConversation(
        [prompt, step, { type: 'posed', toolCallId: 'q', kind: 'other' } as never],
        'c',
      ),
    ).toThrow(/kind/);
  });
});

describe('a call decided before the stop, found without its result', () => {
  it('is closed as one that may have run when it was allowed, as one that did not when refused', () => {
    // Decided by a rule: nothing was put to the person (no `posed`), so the turn cannot go on.
    const stoppedAfter = (outcome: Extract<ConversationEntry, { type: 'approval' }>['outcome']) =>
      restoreConversation(
        allowedBeforeTheStop('c', 'run', COMMAND, [{ id: 'd', name: 'run', arguments: '{}' }])
          .filter((entry) => entry.type !== 'posed')
          .map((entry) => (entry.type === 'approval' ? { ...entry, outcome } : entry)),
        'conversation',
      );
    const allowed = stoppedAfter({
      allowed: true,
      decidedBy: { kind: 'rule', rule: 'run_command:make', source: '/w/.dsh/rules.json' },
    });
    expect(allowed.resume).toBeUndefined();
    // The allowed call may have run: the model is told to check, never that it did not run.
    expect(allowed.closing.map((entry) => codeOf(entry))).toEqual([
      'TOOL_INTERRUPTED',
      'TURN_CANCELLED',
      false,
    ]);
    const refused = stoppedAfter({
      allowed: false,
      decidedBy: { kind: 'person', choice: 'reject_once' },
    });
    expect(refused.closing.map((entry) => codeOf(entry))).toEqual([
      'TURN_CANCELLED',
      'TURN_CANCELLED',
      false,
    ]);
  });

  it('goes on only once the result given on going on is stored: that decision may not be durable', async () => {
    const entries: ConversationEntry[] = [];
    const held: Array<() => void> = [];
    const run = countedTool('run', COMMAND);
    const { agent, model } = scriptedAgent(SCRIPT, {
      agent: {
        tools: [run],
        conversation: allowedBeforeTheStop('c', 'run', COMMAND),
        recorder: {
          add: (entry) => void entries.push(entry),
          flush: () =>
            entries.at(-1)?.type === 'tool-result'
              ? new Promise<void>((resolve) => held.push(resolve))
              : Promise.resolve(),
        },
      },
    });
    const turn = collect(agent.resume());
    for (let tick = 0; tick < 50 && held.length === 0; tick++) await new Promise(setImmediate);
    expect(held).toHaveLength(1);
    expect(model.requests).toHaveLength(0);
    held[0]?.();
    expect(endOf(await turn).reason).toBe('finished');
    expect(run.runs).toBe(0);
    expect(model.requests[0]?.messages.at(-1)).toMatchObject({
      error: { code: 'TOOL_INTERRUPTED' },
    });
  });
});
