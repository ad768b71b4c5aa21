import { createUserInteraction, type UserInteraction } from 'dsh-user-interaction';
import { createScriptedProvider, type ScriptedAnswer } from 'dsh-user-interaction/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { askForm as askFormOf } from '../src/elicitation/ask-form.js';
import { readFormFields } from '../src/elicitation/form-field.js';
import { answerElicitations, type ElicitationRecord } from '../src/index.js';
import {
  EVERY_LIST_TYPE,
  EVERY_TYPE,
  EVERY_TYPE_ANSWER,
  EVERY_TYPE_CONTENT,
} from './support/every-type.js';
import { askForm, inMemoryClient } from './support/loopback.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});

async function setUp(
  replies: ScriptedAnswer[],
  options: { review?: boolean; timeoutMs?: number } = {},
) {
  const interaction: UserInteraction = createUserInteraction();
  const provider = createScriptedProvider({ answers: replies });
  interaction.registerProvider(provider);
  const records: ElicitationRecord[] = [];
  const client = await inMemoryClient((client) =>
    answerElicitations(client, interaction, {
      serverName: 'tickets',
      review: options.review ?? false,
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      onRecord: (record) => records.push(record),
    }),
  );
  open.push(client);
  return { client, provider, records };
}

describe('a form of every field type', () => {
  it('asks one question per field, each in its own shape, and sends the typed values', async () => {
    const { client, provider } = await setUp([EVERY_TYPE_ANSWER]);
    expect(await askForm(client, EVERY_TYPE)).toEqual({
      action: 'accept',
      content: EVERY_TYPE_CONTENT,
    });
    const [set] = provider.batches;
    expect(set?.header).toBe('MCP server tickets');
    expect(set?.questions[0]?.question).toContain('tickets asks: Tell me');
    expect(set?.questions.map((question) => question.header)).toEqual([
      'Name',
      'email',
      'site',
      'day',
      'at',
      'price',
      'seats',
      'urgent',
      'color',
      'size',
    ]);
    // Typed answers for text and numbers; fixed choices for the rest.
    expect(set?.questions[0]?.options).toBeUndefined();
    expect(set?.questions[6]?.question).toContain('a whole number from 1 to 9, required');
    expect(set?.questions[7]?.options?.map((option) => [option.label, option.recommended])).toEqual(
      [
        ['Yes', undefined],
        ['No', true],
      ],
    );
    expect(set?.questions[9]?.options?.map((option) => option.label)).toEqual(['Small', 'Large']);
    expect(set?.questions[9]?.allowCustom).toBe(false);
  });

  it('asks a list of choices as one multi-select and enforces minItems and maxItems', async () => {
    const { client, provider } = await setUp([
      { answers: { f0: { labels: ['Alpha', 'Beta', 'Gamma'] }, f1: { label: 'Leave empty' } } },
      { answers: { f0: { labels: ['Alpha', 'Gamma'] } } },
    ]);
    expect(await askForm(client, EVERY_LIST_TYPE)).toEqual({
      action: 'accept',
      content: { tags: ['a', 'c'] },
    });
    expect(provider.batches[0]?.questions[0]?.multiSelect).toBe(true);
    // The second round asks only the field that broke a rule, saying which.
    expect(provider.batches[1]?.questions).toHaveLength(1);
    expect(provider.batches[1]?.questions[0]?.question).toContain(
      'That answer takes at most 2 choices',
    );
  });

  it('re-asks an answer that breaks the schema, then declines with the reason after the last try', async () => {
    const schema = {
      type: 'object',
      properties: { n: { type: 'integer', maximum: 5 } },
      required: ['n'],
    };
    const bad = { answers: { f0: { custom: '7.5' } } };
    const { client, provider, records } = await setUp([bad, bad, bad, bad]);
    expect(await askForm(client, schema)).toEqual({
      action: 'decline',
      _meta: { 'dev.dsh/reason': 'the answers did not fit the form: n must be a whole number' },
    });
    expect(provider.batches).toHaveLength(4);
    expect(provider.batches[1]?.questions[0]?.question).toContain('must be a whole number');
    expect(records[0]?.reason).toContain('n must be a whole number');
  });

  it('keeps decline and cancel distinct', async () => {
    const schema = { type: 'object', properties: { n: { type: 'string' } } };
    const { client, records } = await setUp([
      { error: 'ASK_DECLINED' },
      { error: 'ASK_CANCELLED' },
    ]);
    expect(await askForm(client, schema)).toEqual({ action: 'decline' });
    expect(await askForm(client, schema)).toEqual({ action: 'cancel' });
    expect(records.map((record) => record.action)).toEqual(['decline', 'cancel']);
  });

  it("gives each question the person's time limit; when it passes, the server gets cancel", async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const { client, provider } = await setUp(
      [{ answers: { f0: { custom: 'Paris' } } }, { label: 'Send' }],
      { review: true, timeoutMs: 90_000 },
    );
    expect(await askForm(client, schema)).toEqual({ action: 'accept', content: { city: 'Paris' } });
    // The form's questions and the review each carry the limit, so the UI counts it down.
    expect(provider.batches[0]?.timeoutMs).toBe(90_000);
    expect(provider.requests[0]?.timeoutMs).toBe(90_000);
    // A question nobody answers in time is withdrawn by the limit, and the server is told cancel.
    const late = await setUp([], { timeoutMs: 50 });
    const held = late.provider.hold();
    const reply = askForm(late.client, schema);
    await (await held).aborted;
    expect(await reply).toEqual({ action: 'cancel', _meta: { 'dev.dsh/reason': 'ASK_TIMEOUT' } });
    expect(late.records).toMatchObject([{ action: 'cancel', reason: 'ASK_TIMEOUT' }]);
  });

  it('lets the person review and change the answers before they are sent', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const { client, provider } = await setUp(
      [
        { answers: { f0: { custom: 'Pariss' } } },
        { label: 'Change answers' },
        { answers: { f0: { custom: 'Paris' } } },
        { label: 'Send' },
      ],
      { review: true },
    );
    expect(await askForm(client, schema)).toEqual({ action: 'accept', content: { city: 'Paris' } });
    expect(provider.requests[0]?.question).toContain('city: Pariss');
    expect(provider.batches[1]?.questions[0]?.options?.[0]?.label).toBe('Keep: Pariss');
  });

  it('applies defaults to fields left out and leaves optional fields out', async () => {
    const schema = {
      type: 'object',
      properties: { note: { type: 'string' }, level: { type: 'integer', default: 2 } },
    };
    const { client } = await setUp([
      { answers: { f0: { label: 'Leave empty' }, f1: { label: 'Use the default: 2' } } },
    ]);
    expect(await askForm(client, schema)).toEqual({ action: 'accept', content: { level: 2 } });
  });

  it('asks a form of more than ten fields in sets of ten', async () => {
    const properties = Object.fromEntries(
      Array.from({ length: 12 }, (_, index) => [`b${index}`, { type: 'boolean' }]),
    );
    const yes = (count: number) =>
      Object.fromEntries(
        Array.from({ length: count }, (_, index) => [`f${index}`, { label: 'Yes' }]),
      );
    const { client, provider } = await setUp([{ answers: yes(10) }, { answers: yes(2) }]);
    const result = (await askForm(client, {
      type: 'object',
      properties,
      required: Object.keys(properties),
    })) as {
      content: Record<string, boolean>;
    };
    expect(Object.keys(result.content)).toHaveLength(12);
    expect(provider.batches.map((set) => set.questions.length)).toEqual([10, 2]);
  });

  it('reads a form it cannot ask as the reason (the SDK refuses such forms before they reach us)', () => {
    expect(readFormFields({ type: 'object', properties: { inner: { type: 'object' } } })).toBe(
      'field "inner" has the unsupported type "object"',
    );
    expect(readFormFields({ type: 'object', properties: {} })).toBe('the form has no fields');
    expect(
      readFormFields({ type: 'object', properties: { s: { type: 'string', format: 'password' } } }),
    ).toBe('field "s" has the unknown format "password"');
  });

  it('keeps a field a hostile server names __proto__ a field, never a prototype', async () => {
    // The SDK drops such a key before it reaches a handler; the form reader does not rely on it.
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}',
    );
    const fields = readFormFields(schema);
    if (typeof fields === 'string') throw new Error(fields);
    const interaction = createUserInteraction();
    interaction.registerProvider(
      createScriptedProvider({ answers: [{ answers: { f0: { custom: 'x' } } }] }),
    );
    const outcome = await askFormOf(interaction, 'm', fields, { serverName: 's', review: false });
    expect(outcome.action === 'accept' && Object.hasOwn(outcome.content, '__proto__')).toBe(true);
    expect(outcome.action === 'accept' && Object.getPrototypeOf(outcome.content)).toBe(
      Object.prototype,
    );
  });

  it('hides a sensitive field from the review and the record', async () => {
    const schema = {
      type: 'object',
      properties: { user: { type: 'string' }, apiToken: { type: 'string', title: 'API token' } },
      required: ['user', 'apiToken'],
    };
    const { client, provider, records } = await setUp(
      [{ answers: { f0: { custom: 'ada' }, f1: { custom: 's3cr3t-value' } } }, { label: 'Send' }],
      { review: true },
    );
    expect(await askForm(client, schema)).toEqual({
      action: 'accept',
      content: { user: 'ada', apiToken: 's3cr3t-value' },
    });
    expect(provider.requests[0]?.question).toContain('API token: (hidden)');
    expect(JSON.stringify(records)).not.toContain('s3cr3t-value');
    expect(records[0]?.content).toEqual({ user: 'ada', apiToken: '[hidden]' });
  });
});
