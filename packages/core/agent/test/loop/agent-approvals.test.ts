import { describe, expect, it } from 'vitest';
import type { AgentTool, ToolCallDescription, ToolContext } from '../../src/loop/agent-tool.js';
import type { ConversationEntry, ConversationRecorder } from '../../src/loop/conversation-entry.js';
import type { PermissionPolicy } from '../../src/loop/permission-policy.js';
import { replayConversation } from '../../src/loop/replay-conversation.js';
import { restoreConversation } from '../../src/loop/restore-conversation.js';
import type { Script } from '../../src/script/script.js';
import { SessionError } from '../../src/session/session-error.js';
import { type Deferred, deferred } from '../../src/testing.js';
import { collect, endOf, expectValidConversation, scriptedAgent } from '../support/harness.js';

const EDIT: ToolCallDescription = {
  kind: 'edit',
  title: 'Edit /w/a.txt',
  locations: [{ path: '/w/a.txt', line: 1 }],
  edit: { path: '/w/a.txt', oldText: 'old\n', newText: 'new\n' },
};

/** A tool that says what it will do, and counts its runs. */
function editTool(description: ToolCallDescription = EDIT) {
  const runs: unknown[] = [];
  const tool: AgentTool & { runs: unknown[] } = {
    name: 'edit_file',
    description: 'Edits a file.',
    parameters: { type: 'object' },
    describe: () => description,
    async execute(_args, context) {
      runs.push(context.description);
      return { ok: true, output: 'edited', details: { edit: description.edit as never } };
    },
    runs,
  };
  return tool;
}

const SCRIPT: Script = {
  steps: [
    {
      text: 'Editing.',
      toolCalls: [{ id: 'e1', name: 'edit_file', arguments: { path: 'a.txt' } }],
    },
    { text: 'Done.' },
  ],
};

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

  it('tells the model a rejected call did not run, and never runs it', async () => {
    const tool = editTool();
    const { agent, model } = scriptedAgent(SCRIPT, {
      answers: [{ choice: 'reject_once' }],
      agent: { tools: [tool] },
    });
    const events = await collect(agent.run('go'));
    expect(tool.runs).toHaveLength(0);
    const result = events.find((event) => event.type === 'tool-result');
    expect(result).toMatchObject({ result: { ok: false, error: { code: 'PERMISSION_DENIED' } } });
    const message = (result as { result: { error: { message: string } } }).result.error.message;
    expect(message).toMatch(/^The person rejected this call, so it did not run/);
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'e1' });
  });

  it('lets the policy decide without asking, naming the rule; a failing policy denies', async () => {
    const allowing: PermissionPolicy = {
      decide: () => ({
        decision: 'allow',
        decidedBy: { kind: 'rule', rule: 'edit_file:*.txt', source: '--allow' },
      }),
    };
    const tool = editTool();
    const { agent, provider } = scriptedAgent(SCRIPT, {
      agent: { tools: [tool], permissions: allowing },
    });
    const events = await collect(agent.run('go'));
    expect(provider.permissions).toHaveLength(0);
    expect(tool.runs).toHaveLength(1);
    expect(events.find((event) => event.type === 'tool-approval')).toMatchObject({
      outcome: { allowed: true, decidedBy: { kind: 'rule', rule: 'edit_file:*.txt' } },
    });

    const broken: PermissionPolicy = {
      decide() {
        throw new Error('rules file damaged');
      },
    };
    const second = editTool();
    const failing = scriptedAgent(SCRIPT, { agent: { tools: [second], permissions: broken } });
    const failed = await collect(failing.agent.run('go'));
    expect(second.runs).toHaveLength(0);
    expect(failed.find((event) => event.type === 'tool-approval')).toMatchObject({
      outcome: { allowed: false, decidedBy: { kind: 'policy' } },
    });
  });

  it('keeps the rule an "always" answer names, and warns when it cannot', async () => {
    const remembered: [string, string][] = [];
    const policy: PermissionPolicy = {
      decide: () => ({
        decision: 'ask',
        allowAlways: { rule: 'edit_file:*.txt', description: 'Always allow edits to *.txt' },
      }),
      remember: (rule, effect) => {
        remembered.push([rule, effect]);
      },
    };
    const { agent } = scriptedAgent(SCRIPT, {
      answers: [{ choice: 'allow_always' }],
      agent: { tools: [editTool()], permissions: policy },
    });
    await collect(agent.run('go'));
    expect(remembered).toEqual([['edit_file:*.txt', 'allow']]);

    const failing: PermissionPolicy = {
      ...policy,
      remember() {
        throw new Error('disk full');
      },
    };
    const tool = editTool();
    const second = scriptedAgent(SCRIPT, {
      answers: [{ choice: 'allow_always' }],
      agent: { tools: [tool], permissions: failing },
    });
    const events = await collect(second.agent.run('go'));
    expect(tool.runs).toHaveLength(1);
    expect(events.find((event) => event.type === 'tool-approval')).toMatchObject({
      warning: expect.stringContaining('could not be saved'),
    });
  });

  it('denies when no UI can approve, and when the person is gone', async () => {
    const tool = editTool();
    const { agent } = scriptedAgent(SCRIPT, {
      answers: [{ error: 'INPUT_CLOSED' }],
      agent: { tools: [tool] },
    });
    const events = await collect(agent.run('go'));
    expect(tool.runs).toHaveLength(0);
    expect(events.find((event) => event.type === 'tool-approval')).toMatchObject({
      outcome: { allowed: false, decidedBy: { kind: 'unanswered', code: 'INPUT_CLOSED' } },
    });
  });

  it('cancels the turn when it is cancelled at the approval; nothing runs', async () => {
    const tool = editTool();
    const { agent, provider } = scriptedAgent(SCRIPT, { agent: { tools: [tool] } });
    const held = provider.hold();
    const controller = new AbortController();
    const turn = collect(agent.run('go', { signal: controller.signal }));
    await held;
    controller.abort();
    const events = await turn;
    expect(endOf(events).reason).toBe('cancelled');
    expect(tool.runs).toHaveLength(0);
    // It never started: the model is told it did not run.
    expect(events.find((event) => event.type === 'tool-result')).toMatchObject({
      result: {
        error: { code: 'TURN_CANCELLED', message: expect.stringContaining('Do not assume it ran') },
      },
    });
    expectValidConversation(agent.messages);
  });

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
