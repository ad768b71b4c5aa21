import { describe, expect, it } from 'vitest';
import type { AgentTool, ToolContext } from '../../src/loop/agent-tool.js';
import type { ConversationEntry, ConversationRecorder } from '../../src/loop/conversation-entry.js';
import type { Script } from '../../src/script/script.js';
import { SessionError } from '../../src/session/session-error.js';
import { type Deferred, deferred } from '../../src/testing.js';
import { EDIT, editTool, SCRIPT } from '../support/edit-approvals.js';
import { collect, endOf, expectValidConversation, scriptedAgent } from '../support/harness.js';

/**
 * A recorder that says after which entry each flush was asked for, and holds the flushes asked
 * right after a tool result until the test lets them go (or fails them).
 */
function resultHoldingRecorder() {
  const entries: ConversationEntry[] = [];
  const order: string[] = [];
  const held: Deferred<void>[] = [];
  const recorder: ConversationRecorder = {
    add: (entry) => void entries.push(entry),
    flush: async () => {
      const after = entries.at(-1)?.type;
      order.push(`flush after ${after}`);
      if (after !== 'tool-result') return;
      const done = deferred();
      held.push(done);
      await done.promise;
    },
  };
  return { recorder, entries, order, held };
}

/** A described tool that, once allowed, asks the person through `ask` before it acts. */
function askingTool(ask: (context: ToolContext) => Promise<string>): AgentTool {
  return {
    ...editTool(),
    async execute(_args, context) {
      return { ok: true, output: await ask(context) };
    },
  };
}

/** Waits until `check` holds, turn by turn of the event loop (at most 200). */
async function until(check: () => boolean): Promise<void> {
  for (let turn = 0; turn < 200 && !check(); turn++) await new Promise(setImmediate);
  expect(check()).toBe(true);
}

describe('approvals', () => {
  it('asks before a described call runs, records the decision first, then runs it once', async () => {
    const tool = editTool();
    const held = resultHoldingRecorder();
    const { agent, provider, model } = scriptedAgent(SCRIPT, {
      answers: [{ choice: 'allow_once' }],
      agent: { tools: [tool], recorder: held.recorder },
    });
    const events = await collect(agent.run('go'));
    expect(endOf(events).reason).toBe('finished');
    expect(provider.permissions).toHaveLength(1);
    expect(provider.permissions[0]).toMatchObject({
      toolCallId: 'e1',
      title: 'Edit /w/a.txt',
      kind: 'edit',
      paths: ['/w/a.txt'],
      edit: EDIT.edit,
      agent: { id: 'agent-1', toolCallId: 'e1' },
    });
    expect(tool.runs).toEqual([EDIT]);
    const types = events.map((event) => event.type);
    expect(types.indexOf('tool-approval')).toBeGreaterThan(types.indexOf('tool-call'));
    expect(events.find((event) => event.type === 'tool-call')).toMatchObject({ description: EDIT });
    expect(held.entries.map((entry) => entry.type)).toEqual([
      'prompt',
      'assistant',
      'posed',
      'approval',
      'tool-result',
      'assistant',
      'turn-end',
    ]);
    // The decision was durable before the tool ran. The result, which holds no answer, was
    // sent to be stored at once, and the agent went on without waiting for it: the flush
    // asked after it is still held, and the model was asked again all the same.
    expect(held.order).toEqual([
      'flush after approval',
      'flush after tool-result',
      'flush after turn-end',
    ]);
    expect(held.held).toHaveLength(1);
    expect(model.requests).toHaveLength(2);
    held.held[0]?.resolve();
    expectValidConversation(agent.messages);
  });

  it('ends the turn with the store’s error when a result stored without waiting could not be', async () => {
    const entries: ConversationEntry[] = [];
    const failure = new SessionError('Cannot save the conversation (EIO).', 'SESSION_WRITE_FAILED');
    const { agent } = scriptedAgent(SCRIPT, {
      answers: [{ choice: 'allow_once' }],
      agent: {
        tools: [editTool()],
        recorder: {
          add: (entry) => void entries.push(entry),
          flush: async () => {
            if (entries.at(-1)?.type === 'tool-result') throw failure;
          },
        },
      },
    });
    const end = endOf(await collect(agent.run('go')));
    expect(end).toMatchObject({
      reason: 'error',
      error: { code: 'SESSION_WRITE_FAILED', message: failure.message },
    });
  });

  it('takes a recorder whose flush returns nothing, or throws at once, as it takes a promise', async () => {
    const failure = new SessionError('Cannot save the conversation (EIO).', 'SESSION_WRITE_FAILED');
    for (const throws of [false, true]) {
      const entries: ConversationEntry[] = [];
      const tool = editTool();
      const { agent } = scriptedAgent(SCRIPT, {
        answers: [{ choice: 'allow_once' }],
        agent: {
          tools: [tool],
          recorder: {
            add: (entry) => void entries.push(entry),
            // Not async: nothing returned, or a throw before any promise.
            flush: (() => {
              if (throws && entries.at(-1)?.type === 'tool-result') throw failure;
            }) as never,
          },
        },
      });
      const end = endOf(await collect(agent.run('go')));
      expect(tool.runs).toHaveLength(1);
      if (throws)
        expect(end).toMatchObject({ reason: 'error', error: { code: 'SESSION_WRITE_FAILED' } });
      else expect(end.reason).toBe('finished');
    }
  });

  it('tells at the next turn that a result stored without waiting could not be, once the turn had ended', async () => {
    const held = resultHoldingRecorder();
    const script: Script = { steps: [...SCRIPT.steps, { text: 'Again.' }] };
    const { agent } = scriptedAgent(script, {
      answers: [{ choice: 'allow_once' }],
      agent: { tools: [editTool()], recorder: held.recorder },
    });
    expect(endOf(await collect(agent.run('go'))).reason).toBe('finished');
    held.held[0]?.reject(
      new SessionError('Cannot save the conversation (EIO).', 'SESSION_WRITE_FAILED'),
    );
    await new Promise(setImmediate);
    expect(endOf(await collect(agent.run('again')))).toMatchObject({
      reason: 'error',
      error: { code: 'SESSION_WRITE_FAILED' },
    });
    // Told once.
    expect(endOf(await collect(agent.run('once more'))).reason).not.toBe('error');
  });

  it('stores the result of an approved call that asked the person before going on with it', async () => {
    for (const [how, ask] of [
      [
        'a question',
        async (context: ToolContext) =>
          (
            await context.ask({
              question: 'Keep the old file?',
              options: [{ label: 'Yes' }, { label: 'No' }],
            })
          ).answer,
      ],
      [
        'a permission of its own',
        async (context: ToolContext) => {
          const answer = await context.interaction.requestPermission?.({
            toolCallId: 'e1',
            title: 'Delete /w/old.txt',
            kind: 'delete',
          });
          return answer?.allowed === false ? 'declined' : 'allowed';
        },
      ],
    ] as const) {
      const held = resultHoldingRecorder();
      const { agent, model } = scriptedAgent(SCRIPT, {
        answers: [{ choice: 'allow_once' }, { label: 'No' }, { choice: 'reject_once' }],
        agent: { tools: [askingTool(ask)], recorder: held.recorder },
      });
      const turn = collect(agent.run('go'));
      // The result holds the person's answer: the agent waits until it is stored.
      await until(() => held.held.length === 1);
      await new Promise(setImmediate);
      expect(model.requests, how).toHaveLength(1);
      held.held[0]?.resolve();
      const events = await turn;
      expect(endOf(events).reason, how).toBe('finished');
      expect(model.requests, how).toHaveLength(2);
      expect(held.order, how).toEqual([
        'flush after approval',
        'flush after tool-result',
        'flush after turn-end',
      ]);
    }
  });
});
