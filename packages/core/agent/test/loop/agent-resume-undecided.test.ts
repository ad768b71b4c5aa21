import { describe, expect, it } from 'vitest';
import type { AgentTool, ToolResult } from '../../src/loop/agent-tool.js';
import { restoreConversation } from '../../src/loop/restore-conversation.js';
import type { ModelToolCall } from '../../src/models/model.js';
import { collect, endOf, scriptedAgent } from '../support/harness.js';
import { codeOf, recorder } from '../support/resumed-conversations.js';

describe('a call found without its result, with no decision stored for it', () => {
  /** A tool that does not describe its calls: it runs with nothing stored before it. */
  function undescribedTool(name: string, execute: () => Promise<ToolResult>): AgentTool {
    return { name, description: `${name}.`, parameters: { type: 'object' }, execute };
  }

  const calls = (first: string): ModelToolCall[] => [
    { id: 'a', name: first, arguments: '{}' },
    { id: 'b', name: 'publish', arguments: '{}' },
  ];

  it('is closed as one that may have run when its tool does not describe it; a question, as one that did not', () => {
    const stoppedIn = (first: string, posed?: 'question' | 'approval') =>
      restoreConversation(
        [
          { type: 'prompt', text: 'Go.' },
          { type: 'assistant', text: '', toolCalls: calls(first) },
          ...(posed === undefined
            ? []
            : [{ type: 'posed' as const, toolCallId: 'a', kind: posed }]),
        ],
        'conversation',
      );
    const ran = stoppedIn('publish');
    // Nothing can go on: nothing waits for the person.
    expect(ran.resume).toBeUndefined();
    expect(ran.closing.map((entry) => codeOf(entry))).toEqual([
      'TOOL_INTERRUPTED',
      'TURN_CANCELLED',
      false,
    ]);
    expect(ran.closing[0]).toMatchObject({
      result: {
        error: { message: expect.stringContaining('it may have run in part or in whole') },
      },
    });
    // The second call cannot have started: the calls run one after another.
    expect(ran.closing[1]).toMatchObject({
      result: { error: { message: expect.stringContaining('Do not assume it ran') } },
    });
    // A question not yet put to the person did nothing.
    expect(stoppedIn('ask_user_question').closing.map((entry) => codeOf(entry))).toEqual([
      'TURN_CANCELLED',
      'TURN_CANCELLED',
      false,
    ]);
  });

  it('is closed, when a new prompt comes first, as one that may have run when it asked in the middle of its work; not when it waited for its approval', async () => {
    const closedBy = async (posed: 'question' | 'approval', first = 'publish') => {
      const stored = recorder();
      const { agent } = scriptedAgent(
        { steps: [{ text: 'Done.' }] },
        {
          agent: {
            tools: [undescribedTool('publish', async () => ({ ok: true, output: 'published' }))],
            conversation: [
              { type: 'prompt', text: 'Go.' },
              { type: 'assistant', text: '', toolCalls: calls(first) },
              { type: 'posed', toolCallId: 'a', kind: posed },
            ],
            recorder: stored.recorder,
          },
        },
      );
      expect(agent.resumable).toBe(true);
      endOf(await collect(agent.run('Something else.')));
      return stored.entries.filter((entry) => entry.type === 'tool-result').map(codeOf);
    };
    // A tool that asks while it works had started: part of its work may be done.
    expect(await closedBy('question')).toEqual(['TOOL_INTERRUPTED', 'TURN_CANCELLED']);
    expect(await closedBy('approval')).toEqual(['TURN_CANCELLED', 'TURN_CANCELLED']);
    expect(await closedBy('question', 'ask_user_question')).toEqual([
      'TURN_CANCELLED',
      'TURN_CANCELLED',
    ]);
  });

  it('is what a kill leaves while a tool without describe runs: the restored turn tells the model to check', async () => {
    const stored = recorder();
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const { agent } = scriptedAgent(
      {
        steps: [{ text: 'Publishing.', toolCalls: [{ id: 'p', name: 'publish', arguments: {} }] }],
      },
      {
        agent: {
          tools: [
            undescribedTool('publish', () => {
              started();
              return new Promise<ToolResult>(() => {});
            }),
          ],
          recorder: stored.recorder,
        },
      },
    );
    const cancel = new AbortController();
    const turn = collect(agent.run('Publish it.', { signal: cancel.signal }));
    await running;
    // What the session file holds at this moment is what a kill -9 leaves.
    const restored = restoreConversation([...stored.entries], 'conversation');
    expect(restored.closing.map((entry) => codeOf(entry))).toEqual(['TOOL_INTERRUPTED', false]);
    cancel.abort();
    expect(endOf(await turn).reason).toBe('cancelled');
  });
});
