import { describe, expect, it } from 'vitest';
import type { AgentTool, ToolCallDescription } from '../../src/loop/agent-tool.js';
import type { ConversationEntry } from '../../src/loop/conversation-entry.js';
import { replayConversation } from '../../src/loop/replay-conversation.js';
import { restoreConversation } from '../../src/loop/restore-conversation.js';
import { deferred } from '../../src/testing.js';
import { EDIT, editTool, SCRIPT } from '../support/edit-approvals.js';
import { collect, endOf, expectValidConversation, scriptedAgent } from '../support/harness.js';

describe('approvals', () => {
  it('tells the model a call stopped by a cancel while it ran may have run, unless it changes nothing', async () => {
    const DID_NOT_RUN = 'did not complete: the person cancelled the turn. Do not assume it ran.';
    const MAY_HAVE_RUN = 'It may have run in part or in whole: check what it did';
    const READ: ToolCallDescription = {
      kind: 'read',
      title: 'Read /w/a.txt',
      locations: [{ path: '/w/a.txt' }],
    };
    for (const [description, told] of [
      [EDIT, MAY_HAVE_RUN],
      [{ ...EDIT, kind: 'execute' }, MAY_HAVE_RUN],
      [READ, DID_NOT_RUN],
    ] as const) {
      const started = deferred<void>();
      const tool: AgentTool = {
        ...editTool(description),
        execute(_args, context) {
          started.resolve();
          // It acts, then waits: the cancel comes while it runs, whatever it has done.
          return new Promise((_resolve, reject) =>
            context.signal.addEventListener('abort', () => reject(context.signal.reason)),
          );
        },
      };
      const { agent } = scriptedAgent(SCRIPT, {
        answers: [{ choice: 'allow_once' }],
        agent: { tools: [tool] },
      });
      const controller = new AbortController();
      const turn = collect(agent.run('go', { signal: controller.signal }));
      await started.promise;
      controller.abort();
      const events = await turn;
      expect(endOf(events).reason).toBe('cancelled');
      const result = events.find((event) => event.type === 'tool-result');
      expect(result, description.kind).toMatchObject({
        result: {
          ok: false,
          error: { code: 'TURN_CANCELLED', message: expect.stringContaining(told) },
        },
      });
      expectValidConversation(agent.messages);
    }
  });

  it('fails a call whose describe throws, before asking anything', async () => {
    const tool: AgentTool = {
      ...editTool(),
      describe() {
        throw new Error('cannot read');
      },
    };
    const { agent, provider } = scriptedAgent(SCRIPT, { agent: { tools: [tool] } });
    const events = await collect(agent.run('go'));
    expect(provider.permissions).toHaveLength(0);
    expect(events.find((event) => event.type === 'tool-result')).toMatchObject({
      result: { ok: false, error: { code: 'INTERNAL_ERROR' } },
    });
  });

  it('restores and replays a conversation with its approvals', async () => {
    const entries: ConversationEntry[] = [];
    const { agent } = scriptedAgent(SCRIPT, {
      answers: [{ choice: 'allow_once' }],
      agent: {
        tools: [editTool()],
        recorder: { add: (entry) => entries.push(entry), flush: async () => {} },
      },
    });
    await collect(agent.run('go'));
    const copy = JSON.parse(JSON.stringify(entries));
    expect(restoreConversation(copy, 'c').entries).toEqual(entries);
    const replayed = [...replayConversation(copy)].map((event) => event.type);
    expect(replayed).toEqual([
      'prompt',
      'text',
      'tool-call',
      'tool-approval',
      'tool-result',
      'text',
      'turn-end',
    ]);
    // A forged approval that allows what nobody answered is refused.
    const forged = copy.map((entry: ConversationEntry) =>
      entry.type === 'approval'
        ? {
            ...entry,
            outcome: {
              allowed: true,
              decidedBy: { kind: 'unanswered', code: 'INPUT_CLOSED', message: 'x' },
            },
          }
        : entry,
    );
    expect(() => restoreConversation(forged, 'c')).toThrow(/unanswered approval cannot allow/);
    const at = copy.findIndex((entry: ConversationEntry) => entry.type === 'approval');
    const twice = [...copy.slice(0, at + 1), copy[at], ...copy.slice(at + 1)];
    expect(() => restoreConversation(twice, 'c')).toThrow(/second time/);
  });
});
