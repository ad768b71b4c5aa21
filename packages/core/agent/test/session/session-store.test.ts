import { appendFileSync, existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createUserInteraction } from 'dsh-user-interaction';
import { createScriptedProvider, type ScriptedAnswer } from 'dsh-user-interaction/testing';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../../src/loop/create-agent.js';
import type { ModelEvent } from '../../src/models/model.js';
import type { Script } from '../../src/script/script.js';
import { createScriptedModel } from '../../src/script/scripted-model.js';
import { isSessionError } from '../../src/session/session-error.js';
import { openSessionStore } from '../../src/session/session-store.js';
import type { StoredSession } from '../../src/session/stored-session.js';
import { stepModel } from '../../src/testing.js';
import { collect, endOf, expectValidConversation, textOf } from '../support/harness.js';
import { lockFiles, sessionLines, sessionPath, stateFolder } from '../support/session-files.js';

const TWO_QUESTIONS: Script = {
  steps: [
    {
      text: 'Two questions.',
      toolCalls: [
        { id: 'name', name: 'ask_user_question', arguments: { question: 'Name?' } },
        {
          id: 'color',
          name: 'ask_user_question',
          arguments: { question: 'Color?', options: [{ label: 'Red' }, { label: 'Blue' }] },
        },
      ],
    },
    { text: 'Hello {{answer:name}} in {{answer:color}}.' },
  ],
};

/** An agent on the session, asking through scripted answers. */
function agentOn(session: StoredSession, script: Script, answers: ScriptedAnswer[] = []) {
  const interaction = createUserInteraction();
  interaction.registerProvider(createScriptedProvider({ answers }));
  return createAgent({
    model: createScriptedModel(script),
    interaction,
    conversation: session.entries,
    recorder: session.recorder,
  });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('the session store', () => {
  it('writes nothing for a session until its first prompt, then one line per event', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const session = store.create({ cwd: '/work/app' });
    expect(await store.list()).toEqual([]);

    const agent = agentOn(session, TWO_QUESTIONS, [{ custom: 'Ann' }, { label: 'Blue' }]);
    endOf(await collect(agent.run('Greet me\nplease')));
    await session.close();

    const lines = sessionLines(dir, session.id);
    expect(lines.map((line) => [line.v, line.type])).toEqual([
      [1, 'session'],
      [1, 'prompt'],
      [1, 'assistant'],
      [1, 'posed'],
      [1, 'tool-result'],
      [1, 'posed'],
      [1, 'tool-result'],
      [1, 'assistant'],
      [1, 'turn-end'],
    ]);
    expect(lines[0]).toEqual({
      v: 1,
      type: 'session',
      id: session.id,
      cwd: '/work/app',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      title: 'Greet me',
    });
    expect(lines[5]).toEqual({ v: 1, type: 'posed', toolCallId: 'color', kind: 'question' });
    expect(lines[6]).toMatchObject({
      toolCallId: 'color',
      result: { ok: true, output: 'Blue', answer: { answer: 'Blue', option: { label: 'Blue' } } },
    });
    expect(lines[8]).toEqual({ v: 1, type: 'turn-end', reason: 'finished' });
    // The lock went with the close.
    expect(lockFiles(dir)).toEqual([]);
  });

  it('makes the file at the first entry, and writes each entry as it comes', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const session = store.create({ cwd: '/' });
    session.recorder.add({ type: 'prompt', text: 'First line\nsecond' });
    // On disk before any flush: the header and the prompt.
    expect(sessionLines(dir, session.id).map((line) => line.type)).toEqual(['session', 'prompt']);
    session.recorder.add({ type: 'assistant', text: 'Hi.' });
    await session.recorder.flush();
    session.recorder.add({ type: 'turn-end', reason: 'finished' });
    await session.close();
    expect(sessionLines(dir, session.id)).toEqual([
      expect.objectContaining({ type: 'session', title: 'First line' }),
      { v: 1, type: 'prompt', text: 'First line\nsecond' },
      { v: 1, type: 'assistant', text: 'Hi.' },
      { v: 1, type: 'turn-end', reason: 'finished' },
    ]);
  });

  it.runIf(existsSync('/proc/self/fd'))(
    'leaves no file open and no lock behind after many sessions',
    async () => {
      const dir = stateFolder();
      const store = openSessionStore({ dir });
      const openFiles = () => readdirSync('/proc/self/fd').length;
      const warm = store.create({ cwd: '/' });
      endOf(await collect(agentOn(warm, { steps: [{ text: 'Hi.' }] }).run('warm up')));
      await warm.close();
      const before = openFiles();
      for (let round = 0; round < 40; round++) {
        const session = store.create({ cwd: '/' });
        endOf(await collect(agentOn(session, { steps: [{ text: 'Hi.' }] }).run(`round ${round}`)));
        await session.close();
        const again = await store.open(session.id);
        await again.close();
      }
      expect(openFiles()).toBe(before);
      expect(lockFiles(dir)).toEqual([]);
      expect(await store.list()).toHaveLength(41);
    },
  );

  it.each([0o022, 0o000, 0o277])(
    'makes its folders 0700 and its files 0600 under umask %o',
    async (umask) => {
      const dir = join(stateFolder(), 'state');
      const previous = process.umask(umask);
      try {
        const session = openSessionStore({ dir }).create({ cwd: '/' });
        endOf(await collect(agentOn(session, { steps: [{ text: 'Hi.' }] }).run('hello')));
        await session.close();
      } finally {
        process.umask(previous);
      }
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, 'sessions')).mode & 0o777).toBe(0o700);
      const [info] = await openSessionStore({ dir }).list();
      expect(statSync(sessionPath(dir, info?.id ?? '')).mode & 0o777).toBe(0o600);
    },
  );

  it('gives the conversation back as it happened: the model gets the same messages, reasoning and its field included', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const first = store.create({ cwd: '/' });
    const call = { id: 'call_7', name: 'ask_user_question', arguments: '{"question":"Name?"}' };
    const model = stepModel(
      async function* (): AsyncGenerator<ModelEvent> {
        yield { type: 'reasoning-delta', text: 'I need ', field: 'reasoning_content' };
        yield { type: 'reasoning-delta', text: 'a name.' };
        yield { type: 'text-delta', text: 'Asking.' };
        yield { type: 'tool-call', call };
        yield { type: 'finish', reason: 'tool-calls' };
      },
      async function* (): AsyncGenerator<ModelEvent> {
        yield { type: 'text-delta', text: 'Thanks.' };
        yield { type: 'finish', reason: 'stop' };
      },
      async function* (request): AsyncGenerator<ModelEvent> {
        yield { type: 'text-delta', text: `I see ${request.messages.length} messages.` };
        yield { type: 'finish', reason: 'stop' };
      },
    );
    const interaction = createUserInteraction();
    interaction.registerProvider(createScriptedProvider({ answers: [{ custom: 'Ann' }] }));
    const agent = createAgent({ model, interaction, recorder: first.recorder });
    endOf(await collect(agent.run('Start.')));
    await first.close();

    const restored = await store.open(first.id);
    expect(restored.warnings).toEqual([]);
    const again = createAgent({
      model,
      interaction,
      conversation: restored.entries,
      recorder: restored.recorder,
    });
    expect(again.messages).toEqual(agent.messages);
    expect(again.messages[2]).toEqual({
      role: 'assistant',
      content: 'Asking.',
      toolCalls: [call],
      reasoning: { text: 'I need a name.', field: 'reasoning_content' },
    });
    endOf(await collect(again.run('And now?')));
    expect(model.requests[2]?.messages).toEqual(again.messages.slice(0, -1));
    await restored.close();
    expect(sessionLines(dir, first.id).filter((line) => line.type === 'prompt')).toHaveLength(2);
  });

  it('goes on with a turn the program left in the middle of a question: the answers given before stay, the waiting one is asked again', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const session = store.create({ cwd: '/' });
    const interaction = createUserInteraction();
    const provider = createScriptedProvider({ answers: [{ custom: 'Ann' }] });
    interaction.registerProvider(provider);
    const agent = createAgent({
      model: createScriptedModel(TWO_QUESTIONS),
      interaction,
      recorder: session.recorder,
    });
    const held = provider.hold();
    const turn = collect(agent.run('Greet me.'));
    await held;
    // The program stops here: its file stays as it is (the lock is tested apart).
    await session.close();
    const linesBefore = sessionLines(dir, session.id);

    const restored = await store.open(session.id);
    expect(restored.entries.slice(2)).toEqual([
      { type: 'posed', toolCallId: 'name', kind: 'question' },
      expect.objectContaining({ type: 'tool-result', toolCallId: 'name' }),
      { type: 'posed', toolCallId: 'color', kind: 'question' },
    ]);
    expect(restored.entries[3]).toMatchObject({ toolCallId: 'name', result: { output: 'Ann' } });
    // Nothing closes the turn: the file is as the program left it.
    expect(sessionLines(dir, session.id)).toEqual(linesBefore);
    // The question the crash cut short is asked again, and only that one; the turn goes on.
    const again = agentOn(restored, TWO_QUESTIONS, [{ label: 'Red' }]);
    expect(again.resumable).toBe(true);
    const events = await collect(again.resume());
    expect(events.filter((event) => event.type === 'tool-call').map((event) => event.id)).toEqual([
      'color',
    ]);
    expect(endOf(events).reason).toBe('finished');
    expect(textOf(events)).toBe('Hello Ann in Red.');
    expectValidConversation(again.messages);
    await restored.close();
    expect(
      sessionLines(dir, session.id)
        .slice(-4)
        .map((line) => line.type),
    ).toEqual(['posed', 'tool-result', 'assistant', 'turn-end']);
    provider.dispose();
    await turn;
  });

  it('closes a turn the program left with nothing put to the person: the next turn follows a valid conversation', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const session = store.create({ cwd: '/' });
    session.recorder.add({ type: 'prompt', text: 'Greet me.' });
    session.recorder.add({
      type: 'assistant',
      text: 'Two questions.',
      toolCalls: [{ id: 'name', name: 'ask_user_question', arguments: '{"question":"Name?"}' }],
    });
    await session.recorder.flush();
    await session.close();

    const restored = await store.open(session.id);
    expect(restored.entries.slice(2)).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'name',
        result: {
          ok: false,
          output: expect.any(String),
          error: {
            name: 'AgentError',
            code: 'TURN_CANCELLED',
            message: expect.stringContaining('the agent stopped before the turn ended'),
          },
        },
      },
      { type: 'turn-end', reason: 'cancelled', interrupted: true },
    ]);
    // The closing lines are on disk.
    expect(
      sessionLines(dir, session.id)
        .slice(-2)
        .map((line) => line.type),
    ).toEqual(['tool-result', 'turn-end']);
    const again = agentOn(restored, TWO_QUESTIONS);
    expect(again.resumable).toBe(false);
    expectValidConversation(again.messages);
    await restored.close();
  });

  it('skips a torn last line with a warning, and goes on after it', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const session = store.create({ cwd: '/' });
    endOf(await collect(agentOn(session, { steps: [{ text: 'One.' }] }).run('first')));
    await session.close();
    const complete = sessionLines(dir, session.id);
    appendFileSync(sessionPath(dir, session.id), '{"v":1,"type":"prompt","te');

    const restored = await store.open(session.id);
    expect(restored.warnings).toEqual([
      expect.stringMatching(/^skipped the last line of .+ \(it is not JSON\): the program stopped/),
    ]);
    expect(restored.entries).toHaveLength(complete.length - 1);
    endOf(await collect(agentOn(restored, { steps: [{ text: 'Two.' }] }).run('second')));
    await restored.close();

    const reopened = await store.open(session.id);
    expect(reopened.warnings).toEqual([]);
    expect(reopened.entries.filter((entry) => entry.type === 'prompt')).toEqual([
      { type: 'prompt', text: 'first' },
      { type: 'prompt', text: 'second' },
    ]);
    await reopened.close();
  });

  it('loses at most the line being written, wherever the program stops', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const session = store.create({ cwd: '/' });
    endOf(
      await collect(
        agentOn(session, TWO_QUESTIONS, [{ custom: 'Ann' }, { label: 'Red' }]).run('One.'),
      ),
    );
    endOf(
      await collect(
        agentOn(session, TWO_QUESTIONS, [{ custom: 'Bob' }, { label: 'Blue' }]).run('Two.'),
      ),
    );
    await session.close();
    const path = sessionPath(dir, session.id);
    const bytes = (await import('node:fs')).readFileSync(path);
    // The entries as written: every line but the header, without the format version.
    const original = sessionLines(dir, session.id)
      .slice(1)
      .map((line) => Object.fromEntries(Object.entries(line).filter(([key]) => key !== 'v')));
    const ends = [...bytes.entries()]
      .filter(([, byte]) => byte === 0x0a)
      .map(([index]) => index + 1);
    // Every cut: at a line's end, one byte into the next line, and in its middle.
    const cuts = ends.slice(0, -1).flatMap((end, index) => {
      const next = ends[index + 1] ?? bytes.length;
      return [end, end + 1, Math.floor((end + next) / 2)];
    });
    for (const cut of cuts) {
      writeFileSync(path, bytes.subarray(0, cut));
      const restored = await store.open(session.id);
      const whole = ends.filter((end) => end <= cut).length - 1;
      expect(restored.warnings, `cut at ${cut}`).toHaveLength(ends.includes(cut) ? 0 : 1);
      expect(restored.entries.slice(0, whole), `cut at ${cut}`).toEqual(original.slice(0, whole));
      const agent = agentOn(restored, TWO_QUESTIONS, [{ custom: 'Cy' }, { label: 'Red' }]);
      // A turn cut while a question waited can go on; a new prompt closes it first.
      if (agent.resumable) endOf(await collect(agent.run('Three.')));
      expectValidConversation(agent.messages);
      await restored.close();
    }
  });

  it('keeps a last line written whole but for its newline, and appends after it', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const session = store.create({ cwd: '/' });
    const agent = agentOn(session, TWO_QUESTIONS, [{ custom: 'Ann' }]);
    const turn = agent.run('Greet me.');
    // Up to the first result: prompt, step, answer.
    for await (const event of turn) if (event.type === 'tool-result') break;
    await session.close();
    const path = sessionPath(dir, session.id);
    const text = statSync(path).size;
    writeFileSync(path, (await import('node:fs')).readFileSync(path).subarray(0, text - 1));

    const restored = await store.open(session.id);
    expect(restored.warnings).toEqual([]);
    expect(restored.entries.map((entry) => entry.type)).toEqual([
      'prompt',
      'assistant',
      'posed',
      'tool-result',
      'tool-result',
      'turn-end',
    ]);
    await restored.close();
    expect(sessionLines(dir, session.id)).toHaveLength(7);
  });

  it('refuses a file damaged before its last line, naming the line, and a newer format', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const session = store.create({ cwd: '/' });
    endOf(await collect(agentOn(session, { steps: [{ text: 'One.' }] }).run('first')));
    await session.close();
    const path = sessionPath(dir, session.id);
    const lines = sessionLines(dir, session.id).map((line) => JSON.stringify(line));
    const cases: [string[], RegExp][] = [
      [
        [lines[0], '{"v":1,"type":"prompt","text":7}', ...lines.slice(2)],
        /line 2: prompt\.text must be a string/,
      ],
      [
        [
          lines[0],
          lines[1],
          '{"v":1,"type":"tool-result","toolCallId":"x","result":{"ok":true,"output":""}}',
          ...lines.slice(2),
        ],
        /line 3: this tool-result is a tool result with no tool call waiting/,
      ],
      [
        [
          lines[0],
          lines[1],
          '{"v":1,"type":"tool-result","toolCallId":"x","result":{"ok":true,"output":"","answers":{"answers":[{"id":"a","answers":[1],"options":[]}]}}}',
          ...lines.slice(2),
        ],
        /line 3: result\.answers\.answers\[0\]\.answers\[0\] must be a string/,
      ],
      [
        [lines[0], lines[1], '{"v":2,"type":"prompt","text":"x"}', ...lines.slice(2)],
        /line 3: it is in format 2, written by a newer version of dsh/,
      ],
      [
        [lines[1] ?? '', ...lines.slice(1)],
        /line 1: the file does not start with a session header/,
      ],
    ] as [string[], RegExp][];
    for (const [content, message] of cases) {
      writeFileSync(path, `${content.join('\n')}\n`);
      const error = await rejection(store.open(session.id));
      expect(isSessionError(error, 'SESSION_INVALID'), String(error)).toBe(true);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toContain(path);
    }
    // A refused file is not locked afterwards.
    expect(lockFiles(dir)).toEqual([]);
  });

  it('checks ids before they reach a path: anything but a lowercase UUID is not found', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    for (const id of [
      '../../etc/passwd',
      '..',
      '',
      'CON',
      'a/b',
      'A0B5F8A6-3C1D-4E2F-9A7B-6C5D4E3F2A1B',
      `${'0'.repeat(8)}-0000-0000-0000-000000000000/..`,
    ]) {
      const error = await rejection(store.open(id));
      expect(isSessionError(error, 'SESSION_NOT_FOUND'), `${id}: ${error}`).toBe(true);
    }
    const error = await rejection(store.open('0b5f8a6e-3c1d-4e2f-9a7b-6c5d4e3f2a1b'));
    expect((error as Error).message).toBe(
      'There is no saved session 0b5f8a6e-3c1d-4e2f-9a7b-6c5d4e3f2a1b.',
    );
    // Nothing was created looking for them.
    expect(() => statSync(join(dir, 'sessions'))).toThrow();
  });

  it('lists the sessions of a folder, newest first, titled by their first message', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const ids: string[] = [];
    for (const [cwd, prompt] of [
      ['/a', '  \n\tPlan the   release\nwith details'],
      ['/b', 'Elsewhere'],
      ['/a', `${'long '.repeat(40)}end`],
    ] as const) {
      const session = store.create({ cwd });
      endOf(await collect(agentOn(session, { steps: [{ text: 'Ok.' }] }).run(prompt)));
      await session.close();
      ids.push(session.id);
    }
    store.create({ cwd: '/a' });
    writeFileSync(join(dir, 'sessions', 'notes.txt'), 'not a session');
    const listed = await store.list({ cwd: '/a' });
    expect(listed.map((info) => info.id).sort()).toEqual([ids[0], ids[2]].sort());
    expect(listed[0]?.updatedAt.getTime()).toBeGreaterThanOrEqual(
      listed[1]?.updatedAt.getTime() ?? 0,
    );
    const titles = new Map(listed.map((info) => [info.id, info.title]));
    expect(titles.get(ids[0] ?? '')).toBe('Plan the release');
    expect(titles.get(ids[2] ?? '')).toBe(`${'long '.repeat(15)}long…`);
    expect(Array.from(titles.get(ids[2] ?? '') ?? '')).toHaveLength(80);
    expect(await store.list()).toHaveLength(3);
  });
});
