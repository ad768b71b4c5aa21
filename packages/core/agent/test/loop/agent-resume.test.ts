import { createUserInteraction, type PendingQuestion } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import type { AgentTool, ToolCallDescription, ToolResult } from '../../src/loop/agent-tool.js';
import type { ConversationEntry, ConversationRecorder } from '../../src/loop/conversation-entry.js';
import { createAgent } from '../../src/loop/create-agent.js';
import { restoreConversation } from '../../src/loop/restore-conversation.js';
import type { ModelToolCall } from '../../src/models/model.js';
import type { Script } from '../../src/script/script.js';
import { createScriptedModel } from '../../src/script/scripted-model.js';
import { recordingModel } from '../../src/testing.js';
import { collect, endOf, expectValidConversation, scriptedAgent } from '../support/harness.js';

const COMMAND: ToolCallDescription = {
  kind: 'execute',
  title: 'Run make',
  command: { command: 'make', cwd: '/w' },
};
const READ: ToolCallDescription = {
  kind: 'read',
  title: 'Read /w/a.txt',
  locations: [{ path: '/w/a.txt' }],
};

/** The person's "allow once" for a call, as a conversation stores it. */
function allowedOnce(toolCallId: string, description: ToolCallDescription): ConversationEntry {
  return {
    type: 'approval',
    toolCallId,
    description,
    outcome: { allowed: true, decidedBy: { kind: 'person', choice: 'allow_once' } },
  };
}

/** A turn stopped after the person allowed its one call once. */
function allowedBeforeTheStop(
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
function countedTool(name: string, description: ToolCallDescription) {
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
const SCRIPT: Script = {
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
function askedNameFirst(
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

const RESUMED_ENTRIES = {
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
function stoppedAtSecondQuestion(
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

function recorder() {
  const entries: ConversationEntry[] = [];
  return {
    entries,
    recorder: { add: (entry: ConversationEntry) => entries.push(entry), flush: async () => {} },
  };
}

function resumedAgent(
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

/**
 * An agent that asks one question, recording into `entries` through `recorder`'s own flush
 * (and written); `asked` is what was recorded each time the UI got a question.
 */
function watchedAgent(recorder: Omit<ConversationRecorder, 'add'>) {
  const entries: ConversationEntry[] = [];
  const asked: string[][] = [];
  const interaction = createUserInteraction();
  interaction.registerProvider({
    id: 'watching',
    ask(question: PendingQuestion<unknown>) {
      asked.push(entries.map((entry) => entry.type));
      question.resolve({ answer: 'Ann' } as never);
    },
  } as never);
  const agent = createAgent({
    model: createScriptedModel({
      steps: [
        {
          text: 'Asking.',
          toolCalls: [{ id: 'q', name: 'ask_user_question', arguments: { question: 'Name?' } }],
        },
        { text: 'Hi.' },
      ],
    }),
    interaction,
    recorder: { ...recorder, add: (entry) => void entries.push(entry) },
  });
  return { agent, entries, asked };
}

describe('a turn that stopped while something waited for the person', () => {
  it('is written as posed before the question is shown, and not made durable on its own', async () => {
    const flushedAt: number[] = [];
    const { agent, entries, asked } = watchedAgent({
      flush: async () => void flushedAt.push(entries.length),
    });
    endOf(await collect(agent.run('Hello.')));
    expect(asked).toEqual([['prompt', 'assistant', 'posed']]);
    expect(entries[2]).toEqual({ type: 'posed', toolCallId: 'q', kind: 'question' });
    // One flush for the answer, one for the turn's end: none for the posed question.
    expect(flushedAt).toEqual([4, 6]);
  });

  it('asks the model about a prompt, and shows a question, only once the recorder has written it', async () => {
    let release!: () => void;
    let held = new Promise<void>((resolve) => (release = resolve));
    let holding = true;
    const { agent, entries, asked } = watchedAgent({
      flush: async () => {},
      // A store still making the session's file: what was added is not written yet.
      written: () => (holding ? held : undefined),
    });
    const turn = collect(agent.run('Hello.'));
    await new Promise((resolve) => setImmediate(resolve));
    // The model was not asked: no assistant step came.
    expect(entries.map((entry) => entry.type)).toEqual(['prompt']);
    const writtenPrompt = release;
    held = new Promise<void>((resolve) => (release = resolve));
    writtenPrompt();
    await new Promise((resolve) => setImmediate(resolve));
    expect(entries.map((entry) => entry.type)).toEqual(['prompt', 'assistant', 'posed']);
    expect(asked).toEqual([]);
    holding = false;
    release();
    endOf(await turn);
    expect(asked).toEqual([['prompt', 'assistant', 'posed']]);
  });

  it('ends a turn cancelled while its prompt waits to be written, without waiting for the disk', async () => {
    const { agent, entries } = watchedAgent({
      flush: async () => {},
      // A store whose new file never gets made: a stalled disk.
      written: () => new Promise<void>(() => {}),
    });
    const controller = new AbortController();
    const turn = collect(agent.run('Hello.', { signal: controller.signal }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(entries.map((entry) => entry.type)).toEqual(['prompt']);
    controller.abort();
    expect(endOf(await turn).reason).toBe('cancelled');
    // The model was never asked.
    expect(entries.map((entry) => entry.type)).toEqual(['prompt', 'turn-end']);
  });

  it('asks the same question again for the same call, and its answer goes to that call', async () => {
    const run = countedTool('run', COMMAND);
    const { agent, model, provider, stored } = resumedAgent(
      RESUMED_ENTRIES.questionWaiting,
      [{ custom: 'Bob' }, { choice: 'allow_once' }],
      [run],
    );
    expect(agent.resumable).toBe(true);
    const events = await collect(agent.resume());

    expect(endOf(events).reason).toBe('finished');
    expect(provider.requests.map((request) => request.question)).toEqual(['Name?']);
    expect(provider.permissions.map((request) => request.toolCallId)).toEqual(['c']);
    expect(run.runs).toBe(1);
    const [request] = model.requests;
    expect(model.requests).toHaveLength(1);
    // The model gets the stored step (its reasoning intact), the answer and the command's output.
    const messages = request?.messages ?? [];
    expectValidConversation(messages);
    expect(messages.find((message) => message.role === 'assistant')).toMatchObject({
      reasoning: { text: 'I must ask first.', field: 'reasoning_content' },
    });
    const results = messages.filter((message) => message.role === 'tool');
    expect(results.map((message) => message.toolCallId)).toEqual(['q', 'c']);
    expect(results[0]?.content).toContain('Bob');
    expect(results[1]?.content).toBe('run ran');
    expect(stored.entries.map((entry) => entry.type)).toEqual([
      'posed',
      'tool-result',
      'posed',
      'approval',
      'tool-result',
      'assistant',
      'turn-end',
    ]);
    expect(stored.entries.some((entry) => 'interrupted' in entry)).toBe(false);
    expect(agent.resumable).toBe(false);
  });

  it('uses an answer stored before the stop as stored, and runs the calls that had not started', async () => {
    const run = countedTool('run', COMMAND);
    const conversation = stoppedAtSecondQuestion({ ok: true, output: '{"answer":"Cy"}' }, [
      { id: 'c', name: 'run', arguments: '{}' },
    ]);
    const { agent, model, provider } = resumedAgent(
      conversation,
      [{ custom: 'Oslo' }, { choice: 'allow_once' }],
      [run],
    );
    expect(agent.resumable).toBe(true);
    endOf(await collect(agent.resume()));
    expect(provider.requests.map((request) => request.question)).toEqual(['Town?']);
    expect(provider.permissions).toHaveLength(1);
    expect(run.runs).toBe(1);
    const results = model.requests[0]?.messages.filter((m) => m.role === 'tool') ?? [];
    expect(results.map((result) => result.toolCallId)).toEqual(['q', 'q2', 'c']);
    expect(results[0]?.content).toBe('{"answer":"Cy"}');
    expect(results[1]?.content).toContain('Oslo');
  });

  it('is not resumed when nothing waits any more: an answer stored, then a stop while the model worked', async () => {
    const stored = recorder();
    const model = recordingModel(createScriptedModel(SCRIPT));
    const agent = createAgent({
      model,
      interaction: createUserInteraction(),
      conversation: [
        ...RESUMED_ENTRIES.questionWaiting,
        { type: 'tool-result', toolCallId: 'q', result: { ok: true, output: '{"answer":"Cy"}' } },
      ],
      recorder: stored.recorder,
      tools: [countedTool('run', COMMAND)],
    });
    // Nothing is asked and no model request is made on its own: the turn is closed as before.
    expect(agent.resumable).toBe(false);
    expect(await collect(agent.resume())).toEqual([]);
    expect(model.requests).toHaveLength(0);
    expect(stored.entries.map((entry) => entry.type)).toEqual(['tool-result', 'turn-end']);
  });

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

  it('keeps a declined question declined', async () => {
    const conversation = stoppedAtSecondQuestion({
      ok: false,
      output:
        '{"error":{"name":"UserInteractionError","code":"ASK_DECLINED","message":"declined"}}',
      error: { name: 'UserInteractionError', code: 'ASK_DECLINED', message: 'declined' },
    });
    const { agent, provider, model } = resumedAgent(conversation, [{ custom: 'Oslo' }], []);
    endOf(await collect(agent.resume()));
    expect(provider.requests.map((request) => request.question)).toEqual(['Town?']);
    expect(model.requests[0]?.messages.filter((m) => m.role === 'tool')[0]).toMatchObject({
      error: { code: 'ASK_DECLINED' },
    });
  });

  it('is closed as before when a new prompt comes first, and the conversation stays valid', async () => {
    const { agent, model, stored } = resumedAgent(
      RESUMED_ENTRIES.questionWaiting,
      [{ custom: 'Dee' }, { choice: 'reject_once' }],
      [countedTool('run', COMMAND)],
    );
    expect(agent.resumable).toBe(true);
    endOf(await collect(agent.run('Something else.')));
    expect(agent.resumable).toBe(false);
    expect(stored.entries.slice(0, 3).map((entry) => entry.type)).toEqual([
      'tool-result',
      'tool-result',
      'turn-end',
    ]);
    expect(stored.entries[2]).toEqual({ type: 'turn-end', reason: 'cancelled', interrupted: true });
    expectValidConversation(model.requests[0]?.messages ?? []);
    // Nothing to go on with now.
    expect(await collect(agent.resume())).toEqual([]);
  });

  it('can still be cancelled at the question asked again', async () => {
    const controller = new AbortController();
    const interaction = createUserInteraction();
    interaction.registerProvider({
      id: 'cancelling',
      ask: () => controller.abort(),
    } as never);
    const stored = recorder();
    const agent = createAgent({
      model: recordingModel(createScriptedModel(SCRIPT)),
      interaction,
      conversation: RESUMED_ENTRIES.questionWaiting,
      recorder: stored.recorder,
      tools: [countedTool('run', COMMAND)],
    });
    const events = await collect(agent.resume({ signal: controller.signal }));
    expect(endOf(events).reason).toBe('cancelled');
    expect(stored.entries.at(-1)).toEqual({ type: 'turn-end', reason: 'cancelled' });
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

  it('closes as before a turn that stopped with nothing put to the person', async () => {
    const stored = recorder();
    const agent = createAgent({
      model: createScriptedModel(SCRIPT),
      interaction: createUserInteraction(),
      conversation: RESUMED_ENTRIES.questionWaiting.slice(0, 2),
      recorder: stored.recorder,
    });
    expect(agent.resumable).toBe(false);
    expect(stored.entries.at(-1)).toEqual({
      type: 'turn-end',
      reason: 'cancelled',
      interrupted: true,
    });
  });
});

/** The error code of a closing tool result; `false` for the turn's end. */
function codeOf(entry: ConversationEntry): string | false | undefined {
  return entry.type === 'tool-result' && !entry.result.ok && entry.result.error.code;
}

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
