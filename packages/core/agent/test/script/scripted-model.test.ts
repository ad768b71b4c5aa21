import { describe, expect, it } from 'vitest';
import type { ModelEvent, ModelMessage } from '../../src/models/model.js';
import { DEFAULT_SCRIPT_END, type Script } from '../../src/script/script.js';
import { createScriptedModel } from '../../src/script/scripted-model.js';

async function stepOf(
  script: Script,
  messages: readonly ModelMessage[],
  signal = new AbortController().signal,
): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of createScriptedModel(script).stream({ messages, tools: [], signal })) {
    events.push(event);
  }
  return events;
}

const user: ModelMessage = { role: 'user', content: 'hi' };
const QUOTING: Script = {
  steps: [
    {
      toolCalls: [
        { id: 'name', name: 'ask_user_question', arguments: { question: 'Name?' } },
        { id: 'color', name: 'ask_user_question', arguments: { question: 'Color?' } },
      ],
    },
    {
      text: 'Hello {{answer:name}}, you like {{ answer:color | no color }}.',
      toolCalls: [
        {
          name: 'ask_user_question',
          arguments: {
            question: 'Is "{{answer:name}}" right?',
            options: [{ label: '{{answer:name}}' }],
          },
        },
      ],
    },
  ],
};

function afterFirstStep(name: ModelMessage, color: ModelMessage): ModelMessage[] {
  return [user, { role: 'assistant', content: '', toolCalls: [] }, name, color];
}

describe('the scripted model', () => {
  it('streams the text word by word, then the calls, then the finish', async () => {
    const events = await stepOf(
      {
        steps: [
          {
            text: 'Two  words\nand more',
            toolCalls: [{ name: 'ask_user_question', arguments: { question: 'Why?' } }],
          },
        ],
      },
      [user],
    );
    expect(events).toEqual([
      { type: 'text-delta', text: 'Two  ' },
      { type: 'text-delta', text: 'words\n' },
      { type: 'text-delta', text: 'and ' },
      { type: 'text-delta', text: 'more' },
      {
        type: 'tool-call',
        call: { id: 'call_1_1', name: 'ask_user_question', arguments: '{"question":"Why?"}' },
      },
      { type: 'finish', reason: 'tool-calls' },
    ]);
  });

  it('takes its place from the conversation: one step per assistant message', async () => {
    const script: Script = { steps: [{ text: 'first' }, { text: 'second' }] };
    expect(await stepOf(script, [user])).toContainEqual({ type: 'text-delta', text: 'first' });
    const later: ModelMessage[] = [user, { role: 'assistant', content: 'first' }, user];
    expect(await stepOf(script, later)).toEqual([
      { type: 'text-delta', text: 'second' },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('says its end line, in one line, when the turn goes on past a last step that made calls', async () => {
    const asking: Script = {
      steps: [{ toolCalls: [{ id: 'q', name: 'ask_user_question', arguments: {} }] }],
    };
    const answered: ModelMessage[] = [
      user,
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'q', name: 'ask_user_question', arguments: '{}' }],
      },
      { role: 'tool', toolCallId: 'q', content: 'yes' },
    ];
    const events = await stepOf(asking, answered);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    const text = events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
    expect(text).toBe(DEFAULT_SCRIPT_END);
    expect(text).not.toContain('\n');
    const custom = await stepOf({ ...asking, end: 'Bye now.' }, answered);
    expect(custom.filter((event) => event.type === 'text-delta')).toHaveLength(2);
    // The person's next message starts the script again.
    const after: ModelMessage[] = [...answered, { role: 'assistant', content: 'Bye now.' }, user];
    expect((await stepOf(asking, after)).find((event) => event.type === 'tool-call')).toEqual({
      type: 'tool-call',
      call: { id: 'q', name: 'ask_user_question', arguments: '{}' },
    });
  });

  it('starts again at the first step with the message after the last step', async () => {
    const script: Script = { steps: [{ text: 'first' }, { text: 'second' }] };
    const over: ModelMessage[] = [
      user,
      { role: 'assistant', content: 'first' },
      user,
      { role: 'assistant', content: 'second' },
      user,
    ];
    expect(await stepOf(script, over)).toEqual([
      { type: 'text-delta', text: 'first' },
      { type: 'finish', reason: 'stop' },
    ]);
    const secondRun = [...over, { role: 'assistant', content: 'first' } as const, user];
    expect(await stepOf(script, secondRun)).toEqual([
      { type: 'text-delta', text: 'second' },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  /** A step that asked for a name and a color, and the name's answer. */
  const nameAnsweredColorAsked: ModelMessage[] = [
    {
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'name', name: 'ask_user_question', arguments: '{}' },
        { id: 'color', name: 'ask_user_question', arguments: '{}' },
      ],
    },
    { role: 'tool', toolCallId: 'name', content: 'Ann' },
  ];

  it('asks a question again at the next message when its turn was cancelled, not those answered', async () => {
    const cancelled = (id: string): ModelMessage => ({
      role: 'tool',
      toolCallId: id,
      content: '{"error":{}}',
      error: { name: 'AgentError', code: 'TURN_CANCELLED', message: 'cancelled' },
    });
    const afterCancel: ModelMessage[] = [user, ...nameAnsweredColorAsked, cancelled('color'), user];
    const events = await stepOf(QUOTING, afterCancel);
    expect(events.flatMap((event) => (event.type === 'tool-call' ? [event.call.id] : []))).toEqual([
      'color',
    ]);
  });

  it('plays a step again at the next message when the cancel cut it short before its calls', async () => {
    const cutShort: ModelMessage[] = [
      user,
      ...nameAnsweredColorAsked,
      { role: 'tool', toolCallId: 'color', content: 'green' },
      // The text of the second step, cut short: no calls were made.
      { role: 'assistant', content: 'Hello Ann, ' },
      user,
    ];
    const events = await stepOf(QUOTING, cutShort);
    const text = events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
    expect(text).toBe('Hello Ann, you like green.');
    expect(events.filter((event) => event.type === 'tool-call')).toHaveLength(1);
  });

  it('quotes answers in text and arguments, safely for JSON', async () => {
    const events = await stepOf(
      QUOTING,
      afterFirstStep(
        { role: 'tool', toolCallId: 'name', content: 'Ann "the" Coder' },
        { role: 'tool', toolCallId: 'color', content: 'green' },
      ),
    );
    const text = events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
    expect(text).toBe('Hello Ann "the" Coder, you like green.');
    const call = events.find((event) => event.type === 'tool-call');
    expect(call?.type === 'tool-call' && JSON.parse(call.call.arguments)).toEqual({
      question: 'Is "Ann "the" Coder" right?',
      options: [{ label: 'Ann "the" Coder' }],
    });
  });

  it('renders the arguments of each request from its own answers, raw JSON text too', async () => {
    const model = createScriptedModel({
      steps: [
        {
          toolCalls: [{ id: 'name', name: 'ask_user_question', arguments: { question: 'Name?' } }],
        },
        {
          toolCalls: [
            { id: 'a', name: 'echo', arguments: '{"text":"{{answer:name}}"}' },
            { id: 'b', name: 'echo', arguments: { text: ['{{answer:name}}'] } },
            { id: 'c', name: 'echo', arguments: '{"text":"plain"}' },
          ],
        },
      ],
    });
    const argumentsAfter = async (answer: string) => {
      const messages: ModelMessage[] = [
        user,
        { role: 'assistant', content: '', toolCalls: [] },
        { role: 'tool', toolCallId: 'name', content: answer },
      ];
      const calls: string[] = [];
      for await (const event of model.stream({
        messages,
        tools: [],
        signal: new AbortController().signal,
      })) {
        if (event.type === 'tool-call') calls.push(event.call.arguments);
      }
      return calls;
    };
    expect(await argumentsAfter('Ann')).toEqual([
      '{"text":"Ann"}',
      '{"text":["Ann"]}',
      '{"text":"plain"}',
    ]);
    expect(await argumentsAfter('Bob')).toEqual([
      '{"text":"Bob"}',
      '{"text":["Bob"]}',
      '{"text":"plain"}',
    ]);
  });

  it('quotes a failed ask as its fallback, else as "(no answer: CODE)"', async () => {
    const failed = (id: string, code: string): ModelMessage => ({
      role: 'tool',
      toolCallId: id,
      content: JSON.stringify({ error: { name: 'UserInteractionError', code, message: '…' } }),
      error: { name: 'UserInteractionError', code, message: '…' },
    });
    const events = await stepOf(
      QUOTING,
      afterFirstStep(failed('name', 'ASK_DECLINED'), failed('color', 'INPUT_CLOSED')),
    );
    const text = events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
    expect(text).toBe('Hello (no answer: ASK_DECLINED), you like no color.');
  });

  it('stops as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const model = createScriptedModel({ steps: [{ text: 'a b c d' }] });
    const events: ModelEvent[] = [];
    for await (const event of model.stream({
      messages: [user],
      tools: [],
      signal: controller.signal,
    })) {
      events.push(event);
      controller.abort();
    }
    expect(events).toEqual([{ type: 'text-delta', text: 'a ' }]);
    expect(await stepOf({ steps: [{ text: 'x' }] }, [user], AbortSignal.abort())).toEqual([]);
  });

  it('is named after its script and keeps a copy of it', async () => {
    const script = { steps: [{ text: 'original' }] };
    const model = createScriptedModel(script, { name: 'demo' });
    script.steps[0] = { text: 'changed' };
    expect(model.id).toBe('scripted:demo');
    const events: ModelEvent[] = [];
    for await (const event of model.stream({
      messages: [user],
      tools: [],
      signal: new AbortController().signal,
    })) {
      events.push(event);
    }
    expect(events[0]).toEqual({ type: 'text-delta', text: 'original' });
  });
});
