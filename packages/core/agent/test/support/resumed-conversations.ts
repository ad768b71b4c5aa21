import type { AgentTool, ToolCallDescription, ToolResult } from '../../src/loop/agent-tool.js';
import type { ConversationEntry } from '../../src/loop/conversation-entry.js';
import type { ModelToolCall } from '../../src/models/model.js';
import type { Script } from '../../src/script/script.js';
import { scriptedAgent } from './harness.js';

// The conversations a stopped turn leaves, and agents that go on with them (agent-resume-*.test.ts).

export const COMMAND: ToolCallDescription = {
  kind: 'execute',
  title: 'Run make',
  command: { command: 'make', cwd: '/w' },
};
export const READ: ToolCallDescription = {
  kind: 'read',
  title: 'Read /w/a.txt',
  locations: [{ path: '/w/a.txt' }],
};

/** The person's "allow once" for a call, as a conversation stores it. */
export function allowedOnce(
  toolCallId: string,
  description: ToolCallDescription,
): ConversationEntry {
  return {
    type: 'approval',
    toolCallId,
    description,
    outcome: { allowed: true, decidedBy: { kind: 'person', choice: 'allow_once' } },
  };
}

/** A turn stopped after the person allowed its one call once. */
export function allowedBeforeTheStop(
  id: string,
  name: string,
  description: ToolCallDescription,
  later: readonly ModelToolCall[] = [],
): ConversationEntry[] {
  return [
    { type: 'prompt', text: 'Go.' },
    { type: 'assistant', text: '', toolCalls: [{ id, name, arguments: '{}' }, ...later] },
    { type: 'posed', toolCallId: id, kind: 'approval' },
    allowedOnce(id, description),
  ];
}

/** A tool that says what it will do, and counts its runs. */
export function countedTool(name: string, description: ToolCallDescription) {
  const tool = {
    name,
    description: `${name}.`,
    parameters: { type: 'object' },
    describe: () => description,
    runs: 0,
    async execute() {
      tool.runs++;
      return { ok: true, output: `${name} ran` };
    },
  } satisfies AgentTool & { runs: number };
  return tool;
}

/** Asks a name, runs a command, then sums up with the answer and the command's output. */
export const SCRIPT: Script = {
  steps: [
    {
      text: 'Asking.',
      toolCalls: [
        { id: 'q', name: 'ask_user_question', arguments: { question: 'Name?' } },
        { id: 'c', name: 'run', arguments: {} },
      ],
    },
    { text: 'Hi {{answer:q}}.' },
  ],
};

/** "Hello.", and a step that asks Name? (call `q`) before its other calls. */
export function askedNameFirst(
  others: readonly ModelToolCall[],
  step: Partial<Extract<ConversationEntry, { type: 'assistant' }>> = {},
): ConversationEntry[] {
  return [
    { type: 'prompt', text: 'Hello.' },
    {
      type: 'assistant',
      text: 'Asking.',
      toolCalls: [
        { id: 'q', name: 'ask_user_question', arguments: '{"question":"Name?"}' },
        ...others,
      ],
      ...step,
    },
  ];
}

export const RESUMED_ENTRIES = {
  /** The program stopped while the question waited. */
  questionWaiting: [
    ...askedNameFirst([{ id: 'c', name: 'run', arguments: '{}' }], {
      reasoning: { text: 'I must ask first.', field: 'reasoning_content' },
    }),
    { type: 'posed', toolCallId: 'q', kind: 'question' },
  ],
} satisfies Record<string, ConversationEntry[]>;

/**
 * A step that asked Name? and then Town?, stopped while Town? waited: `first` is the stored
 * result of Name?, and `later` are calls of the same step after them, not started.
 */
export function stoppedAtSecondQuestion(
  first: ToolResult,
  later: readonly ModelToolCall[] = [],
): ConversationEntry[] {
  return [
    ...askedNameFirst([
      { id: 'q2', name: 'ask_user_question', arguments: '{"question":"Town?"}' },
      ...later,
    ]),
    { type: 'posed', toolCallId: 'q', kind: 'question' },
    { type: 'tool-result', toolCallId: 'q', result: first },
    { type: 'posed', toolCallId: 'q2', kind: 'question' },
  ];
}

export function recorder() {
  const entries: ConversationEntry[] = [];
  return {
    entries,
    recorder: { add: (entry: ConversationEntry) => entries.push(entry), flush: async () => {} },
  };
}

export function resumedAgent(
  conversation: readonly ConversationEntry[],
  answers: NonNullable<NonNullable<Parameters<typeof scriptedAgent>[1]>['answers']>,
  tools: AgentTool[],
) {
  const stored = recorder();
  const setup = scriptedAgent(SCRIPT, {
    answers,
    agent: { tools, conversation, recorder: stored.recorder },
  });
  return { ...setup, stored };
}

/** The error code of a closing tool result; `false` for the turn's end. */
export function codeOf(entry: ConversationEntry): string | false | undefined {
  return entry.type === 'tool-result' && !entry.result.ok && entry.result.error.code;
}
