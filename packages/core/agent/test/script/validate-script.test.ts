import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isModelError, ModelError } from '../../src/models/model-error.js';
import { loadScript } from '../../src/script/load-script.js';
import { createScriptedModel } from '../../src/script/scripted-model.js';
import { validateScript } from '../../src/script/validate-script.js';

function problemOf(value: unknown): { field: string | undefined; message: string } {
  try {
    validateScript(value, 'my.json');
  } catch (error) {
    expect(isModelError(error, 'SCRIPT_INVALID')).toBe(true);
    const { field, message } = error as ModelError;
    expect(message).toMatch(/^Invalid script my\.json: /);
    if (field !== undefined) expect(message).toContain(field);
    return { field, message };
  }
  throw new Error('the script was accepted');
}

const ask = { name: 'ask_user_question', arguments: { question: 'Q?' } };

describe('validateScript', () => {
  it('accepts a script and returns it', () => {
    const script = {
      $schema: 'ignored',
      description: 'A test.',
      steps: [{ text: 'Hi', toolCalls: [{ id: 'q', ...ask }] }, { text: '{{answer:q}}' }],
      end: 'Done.',
    };
    expect(validateScript(script)).toBe(script);
  });

  it.each([
    ['not an object', [], 'the script', 'must be a JSON object'],
    ['no steps', {}, 'steps', 'must be a non-empty array'],
    ['empty steps', { steps: [] }, 'steps', 'must be a non-empty array'],
    ['an unknown root field', { steps: [{ text: 'x' }], step: [] }, 'step', 'is not a known field'],
    ['a bad end', { steps: [{ text: 'x' }], end: ' ' }, 'end', 'must be a non-blank string'],
    [
      'a bad description',
      { steps: [{ text: 'x' }], description: 3 },
      'description',
      'must be a string',
    ],
    ['a step that is not an object', { steps: ['hi'] }, 'steps[0]', 'must be an object'],
    ['an empty step', { steps: [{ text: '' }] }, 'steps[0]', 'non-empty `text` or `toolCalls`'],
    [
      'a misspelled step field',
      { steps: [{ txt: 'hi' }] },
      'steps[0].txt',
      'allowed: text, toolCalls',
    ],
    ['text that is not a string', { steps: [{ text: 1 }] }, 'steps[0].text', 'must be a string'],
    [
      'toolCalls not an array',
      { steps: [{ toolCalls: {} }] },
      'steps[0].toolCalls',
      'must be an array',
    ],
    [
      'a call without a name',
      { steps: [{ toolCalls: [{}] }] },
      'steps[0].toolCalls[0].name',
      'must be a tool name',
    ],
    [
      'a call that is not an object',
      { steps: [{ toolCalls: [3] }] },
      'steps[0].toolCalls[0]',
      'must be an object',
    ],
    [
      'a bad call id',
      { steps: [{ toolCalls: [{ ...ask, id: 'a b' }] }] },
      'steps[0].toolCalls[0].id',
      'must be 1 to 64',
    ],
    [
      'a repeated id',
      { steps: [{ toolCalls: [{ ...ask, id: 'q' }] }, { toolCalls: [{ ...ask, id: 'q' }] }] },
      'steps[1].toolCalls[0].id',
      'repeats the id "q"',
    ],
    [
      'array arguments',
      { steps: [{ toolCalls: [{ ...ask, arguments: [] }] }] },
      'steps[0].toolCalls[0].arguments',
      'must be an object',
    ],
    [
      'an unknown call field',
      { steps: [{ toolCalls: [{ ...ask, args: {} }] }] },
      'steps[0].toolCalls[0].args',
      'allowed: id, name, arguments',
    ],
    [
      'a quote of an unknown id',
      { steps: [{ toolCalls: [{ ...ask, id: 'name' }] }, { text: 'Hi {{answer:nmae}}' }] },
      'steps[1].text',
      'quotes {{answer:nmae}}, but no tool call of an earlier step has that id (ids so far: name)',
    ],
    [
      'a quote of a call in the same step',
      { steps: [{ text: '{{answer:q}}', toolCalls: [{ ...ask, id: 'q' }] }] },
      'steps[0].text',
      'ids so far: none',
    ],
    [
      'a quote inside arguments',
      { steps: [{ toolCalls: [{ ...ask, arguments: { question: 'Is {{answer:x}} ok?' } }] }] },
      'steps[0].toolCalls[0].arguments.question',
      'quotes {{answer:x}}',
    ],
    [
      'a quote inside an option',
      {
        steps: [
          {
            toolCalls: [
              { ...ask, arguments: { question: 'Q?', options: [{ label: '{{answer:y}}' }] } },
            ],
          },
        ],
      },
      'steps[0].toolCalls[0].arguments.options[0].label',
      'quotes {{answer:y}}',
    ],
  ])('rejects %s', (_name, value, field, problem) => {
    const found = problemOf(value);
    expect(found.field).toBe(field);
    expect(found.message).toContain(problem);
  });

  it("rejects a hole in the steps or in a step's calls (an array made in code, not read from JSON)", () => {
    const steps: unknown[] = [];
    steps[1] = { text: 'Hi.' };
    expect(problemOf({ steps }).field).toBe('steps[0]');
    const toolCalls: unknown[] = [];
    toolCalls[1] = ask;
    expect(problemOf({ steps: [{ toolCalls }] }).field).toBe('steps[0].toolCalls[0]');
    // createScriptedModel checks a copy made by structuredClone, which keeps holes.
    expect(() => createScriptedModel({ steps: [{ toolCalls }] })).toThrow(
      'Invalid script script: steps[0].toolCalls[0] must be an object with a `name`.',
    );
  });

  it('leaves other braces alone', () => {
    expect(() => validateScript({ steps: [{ text: 'Use {{ mustache }} or {x}' }] })).not.toThrow();
  });

  it('is what createScriptedModel checks', () => {
    expect(() => createScriptedModel({ steps: 'none' }, { name: 'inline' })).toThrow(
      'Invalid script inline: steps must be a non-empty array of steps.',
    );
  });
});

describe('loadScript', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'dsh-agent-script-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  async function file(name: string, text: string): Promise<string> {
    const path = join(folder, name);
    await writeFile(path, text);
    return path;
  }

  async function failureOf(path: string): Promise<ModelError> {
    const error = await loadScript(path).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(isModelError(error, 'SCRIPT_INVALID')).toBe(true);
    return error as ModelError;
  }

  it('reads a valid script, with or without a byte-order mark', async () => {
    const script = { steps: [{ text: 'hi' }] };
    expect(await loadScript(await file('ok.json', JSON.stringify(script)))).toEqual(script);
    expect(await loadScript(await file('bom.json', `\uFEFF${JSON.stringify(script)}`))).toEqual(
      script,
    );
  });

  it('names the file and the problem', async () => {
    const missing = join(folder, 'missing.json');
    expect((await failureOf(missing)).message).toBe(`Cannot read script ${missing}: no such file.`);
    expect((await failureOf(folder)).message).toContain('it is a folder, not a file');
    const broken = await file('broken.json', '{"steps": [');
    expect((await failureOf(broken)).message).toMatch(
      new RegExp(
        `^Invalid script ${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid JSON \\(.+\\)\\.$`,
      ),
    );
    const invalid = await file(
      'invalid.json',
      JSON.stringify({ steps: [{ toolCalls: [{ name: 'x y' }] }] }),
    );
    const error = await failureOf(invalid);
    expect(error.message).toBe(
      `Invalid script ${invalid}: steps[0].toolCalls[0].name must be a tool name (1 to 64 letters, digits, _ or -).`,
    );
    expect(error.field).toBe('steps[0].toolCalls[0].name');
    expect(error).toBeInstanceOf(ModelError);
  });
});
