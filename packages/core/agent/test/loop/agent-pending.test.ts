import { createUserInteraction } from 'dsh-user-interaction';
import { createScriptedProvider, type ScriptedAnswer } from 'dsh-user-interaction/testing';
import { describe, expect, it } from 'vitest';
import type { AgentTool, ToolCallDescription, ToolContext } from '../../src/loop/agent-tool.js';
import type { ConversationEntry } from '../../src/loop/conversation-entry.js';
import { createAgent } from '../../src/loop/create-agent.js';
import { readConversationEntry } from '../../src/loop/read-conversation-entry.js';
import { createScriptedModel } from '../../src/script/scripted-model.js';
import { entryLine, readSessionLine } from '../../src/session/session-line.js';
import { collect, endOf } from '../support/harness.js';

// A tool that asks the person in the middle of its work (an MCP server's `input_required`)
// keeps what it needs to go on with the question it poses: a kill then loses neither.

const OTHER: ToolCallDescription = { kind: 'other', title: 'Wipe the cache' };

/** Records `state` ("round N"), asks, then finishes with the answer; on resume, sees `pending`. */
function wipeTool() {
  const seen: { pending: string | undefined }[] = [];
  const tool = {
    name: 'wipe',
    description: 'Wipes.',
    parameters: { type: 'object' },
    describe: () => OTHER,
    async execute(_args: unknown, context: ToolContext) {
      seen.push({ pending: context.pending });
      await context.recordPending?.(context.pending === undefined ? 'round 1' : 'round 2');
      const answer = await context.ask({ question: 'Which scope?' });
      return { ok: true, output: `wiped ${answer.answer}` };
    },
  } satisfies AgentTool;
  return { tool, seen };
}

const MODEL = () =>
  createScriptedModel({
    steps: [
      { text: 'Wiping.', toolCalls: [{ id: 'w', name: 'wipe', arguments: {} }] },
      { text: 'Done.' },
    ],
  });

/** An interaction answering from `answers` (scripted), calling `onShown` as each question shows. */
function answering(answers: ScriptedAnswer[], onShown: () => void = () => {}) {
  const interaction = createUserInteraction();
  const provider = createScriptedProvider({ answers });
  interaction.registerProvider({
    ...provider,
    ask(request: Parameters<typeof provider.ask>[0]) {
      onShown();
      return provider.ask(request);
    },
  });
  return { interaction, provider };
}

/** A conversation stopped while the wipe's question waited, its state stored. */
const STOPPED: ConversationEntry[] = [
  { type: 'prompt', text: 'Wipe it.' },
  { type: 'assistant', text: 'Wiping.', toolCalls: [{ id: 'w', name: 'wipe', arguments: '{}' }] },
  { type: 'posed', toolCallId: 'w', kind: 'approval' },
  {
    type: 'approval',
    toolCallId: 'w',
    description: OTHER,
    outcome: { allowed: true, decidedBy: { kind: 'person', choice: 'allow_once' } },
  },
  { type: 'posed', toolCallId: 'w', kind: 'question', state: 'round 1' },
];

describe('a question a tool poses with the state it needs to go on', () => {
  it('is stored durably, state and all, before the question is shown', async () => {
    const entries: ConversationEntry[] = [];
    let durable = 0;
    const shownWith: number[] = [];
    const { tool } = wipeTool();
    const agent = createAgent({
      model: MODEL(),
      tools: [tool],
      interaction: answering([{ choice: 'allow_once' }, { custom: 'sessions' }], () =>
        shownWith.push(durable),
      ).interaction,
      recorder: {
        add: (entry) => void entries.push(entry),
        flush: async () => {
          durable = entries.length;
        },
      },
    });
    expect(endOf(await collect(agent.run('Wipe it.'))).reason).toBe('finished');
    const posedAt = entries.findIndex((entry) => entry.type === 'posed' && 'state' in entry);
    expect(entries[posedAt]).toEqual({
      type: 'posed',
      toolCallId: 'w',
      kind: 'question',
      state: 'round 1',
    });
    // The question was shown once everything up to its posed entry had been flushed.
    expect(shownWith).toEqual([posedAt + 1]);
  });

  it('goes on after a stop: the call runs again with its state, its approval kept, and its result reaches the conversation', async () => {
    const { tool, seen } = wipeTool();
    const entries: ConversationEntry[] = [];
    const { interaction, provider } = answering([{ custom: 'sessions' }]);
    const agent = createAgent({
      model: MODEL(),
      tools: [tool],
      interaction,
      conversation: STOPPED,
      recorder: { add: (entry) => void entries.push(entry), flush: async () => {} },
    });
    expect(agent.resumable).toBe(true);
    const events = await collect(agent.resume());
    expect(endOf(events).reason).toBe('finished');
    expect(seen).toEqual([{ pending: 'round 1' }]);
    expect(provider.permissions).toEqual([]);
    expect(provider.requests.map((request) => request.question)).toEqual(['Which scope?']);
    expect(entries).toContainEqual({
      type: 'tool-result',
      toolCallId: 'w',
      result: { ok: true, output: 'wiped sessions' },
    });
    expect(agent.messages.at(-2)).toMatchObject({ role: 'tool', content: 'wiped sessions' });
  });

  it('is closed as interrupted when a new message comes first (never run again without it)', async () => {
    const { tool, seen } = wipeTool();
    const agent = createAgent({
      model: createScriptedModel({ steps: [{ text: 'Fine.' }] }),
      tools: [tool],
      interaction: answering([]).interaction,
      conversation: STOPPED,
    });
    endOf(await collect(agent.run('Never mind.')));
    expect(seen).toEqual([]);
    expect(agent.messages.find((message) => message.role === 'tool')).toMatchObject({
      error: { code: 'TOOL_INTERRUPTED' },
    });
  });

  it('a state round-trips through a session line; one on an approval, or not a string, is refused', () => {
    const entry = STOPPED[4] as ConversationEntry;
    expect(readSessionLine(entryLine(entry).trimEnd())).toEqual({ entry });
    expect(
      readConversationEntry({ type: 'posed', toolCallId: 'w', kind: 'approval', state: 's' }),
    ).toEqual({ problem: 'posed.state is kept for a question only' });
    expect(
      readConversationEntry({ type: 'posed', toolCallId: 'w', kind: 'question', state: 3 }),
    ).toEqual({ problem: 'posed.state must be a string' });
  });

  it('refuses a state over the limit before anything is recorded', async () => {
    const entries: ConversationEntry[] = [];
    const tool: AgentTool = {
      name: 'wipe',
      description: 'Wipes.',
      parameters: { type: 'object' },
      async execute(_args, context) {
        await context.recordPending?.('x'.repeat(1_000_001));
        return { ok: true, output: 'not reached' };
      },
    };
    const agent = createAgent({
      model: MODEL(),
      tools: [tool],
      interaction: answering([]).interaction,
      recorder: { add: (entry) => void entries.push(entry), flush: async () => {} },
    });
    endOf(await collect(agent.run('Wipe it.')));
    expect(entries.some((entry) => entry.type === 'posed')).toBe(false);
    expect(entries.find((entry) => entry.type === 'tool-result')).toMatchObject({
      result: { ok: false },
    });
  });
});
