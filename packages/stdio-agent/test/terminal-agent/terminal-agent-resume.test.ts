import {
  createScriptedModel,
  DEMO_SCRIPT,
  openSessionStore,
  type Script,
  type StoredSession,
} from 'dsh-agent';
import {
  recordingModel,
  removeTemporaryStateFolders,
  temporaryStateFolder,
} from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { KEYS } from '../../src/testing.js';
import { startAgent, stopAgents, waitForPrompt } from '../support/agent-harness.js';
import { earlierRun } from '../support/earlier-run.js';

afterEach(async () => {
  await stopAgents();
  removeTemporaryStateFolders();
});

/**
 * The agent on a script that answers "Ok.", saving to `session` if one is given: it is sent each
 * of `messages`, then Ctrl+D at the prompt quits it with status 0. Resolves with its last screen.
 */
async function quitAfter(messages: readonly string[], session?: StoredSession): Promise<string> {
  const agent = startAgent({
    model: createScriptedModel({ steps: [{ text: 'Ok.' }] }),
    ...(session !== undefined && { session }),
  });
  await waitForPrompt(agent.terminal);
  for (const message of messages) {
    agent.type(message);
    await agent.terminal.waitFor('Ok.');
    await waitForPrompt(agent.terminal);
  }
  agent.terminal.press('\u0004');
  expect(await agent.exit).toBe(0);
  return agent.terminal.text();
}

describe('a resumed conversation in the terminal', () => {
  it('shows its last turns before the prompt, answers included, and the model receives all of it', async () => {
    const store = openSessionStore({ dir: temporaryStateFolder() });
    const script: Script = {
      steps: [
        { text: 'Reply one.' },
        { text: 'Reply two.' },
        {
          text: 'A question.',
          toolCalls: [
            {
              id: 'color',
              name: 'ask_user_question',
              arguments: {
                question: 'Which colour?',
                header: 'Colour',
                options: [{ label: 'Red' }, { label: 'Blue' }],
              },
            },
            { id: 'name', name: 'ask_user_question', arguments: { question: 'Your name?' } },
          ],
        },
        { text: 'Thanks {{answer:name|nobody}}, {{answer:color}} it is.' },
      ],
    };
    const id = await earlierRun(store, '/', script, [
      { prompt: 'first' },
      { prompt: 'second' },
      { prompt: 'third', answers: [{ label: 'Blue' }, { error: 'ASK_DECLINED' }] },
    ]);
    const model = recordingModel(createScriptedModel(script));
    const { terminal, type } = startAgent({ model, session: await store.open(id), columns: 80 });
    const screen = await waitForPrompt(terminal);
    expect(screen).toBe(
      [
        'Type a message and press Enter. Ctrl+C cancels a turn; Ctrl+D quits.',
        'Resumed conversation (3 turns):',
        '> first',
        'Reply one.',
        '',
        '> second',
        'Reply two.',
        '',
        '> third',
        'A question.',
        '✔ Colour · Blue',
        '✖ Your name? · declined',
        'Thanks nobody, Blue it is.',
        '',
        '> ',
      ].join('\n'),
    );
    type('fourth');
    await terminal.waitFor('Reply one.\n\n> ');
    expect(model.requests[0]?.messages.filter((message) => message.role === 'user')).toEqual(
      ['first', 'second', 'third', 'fourth'].map((content) => ({ role: 'user', content })),
    );
  });

  it('shows several questions asked at once a line each, with every answer the file kept', async () => {
    const store = openSessionStore({ dir: temporaryStateFolder() });
    // Asked with two others, then alone.
    const database = { id: 'db', header: 'Database', question: 'Which database?' };
    const script: Script = {
      steps: [
        {
          text: 'Three at once.',
          toolCalls: [
            {
              id: 'plan',
              name: 'ask_user_question',
              arguments: {
                questions: [
                  { ...database, options: [{ label: 'SQLite' }, { label: 'Postgres' }] },
                  {
                    id: 'features',
                    question: 'Which features?\nAny.',
                    multi_select: true,
                    options: [{ label: 'Auth' }, { label: 'Docs' }, { label: 'Tests' }],
                  },
                  { id: 'name', header: 'Name', question: 'Its name?' },
                ],
              },
            },
          ],
        },
        { text: 'Noted {{answer:plan.features}}.' },
        {
          text: 'Again.',
          toolCalls: [
            {
              id: 'again',
              name: 'ask_user_question',
              arguments: {
                questions: [database],
              },
            },
          ],
        },
        { text: 'Fine.' },
      ],
    };
    const id = await earlierRun(store, '/', script, [
      {
        prompt: 'plan',
        answers: [
          {
            answers: {
              db: { label: 'Postgres' },
              features: { labels: ['Auth', 'Tests'], custom: 'audit \u001b[31mlog' },
              name: { custom: 'shop' },
            },
          },
        ],
      },
      { prompt: 'more', answers: [{ error: 'ASK_DECLINED' }] },
    ]);
    const opened = await store.open(id);
    // The answers' metadata survives the file, not only the text the model read.
    const result = opened.entries.find((entry) => entry.type === 'tool-result');
    expect(result?.type === 'tool-result' && result.result.ok && result.result.answers).toEqual({
      answers: [
        { id: 'db', answers: ['Postgres'], options: [{ label: 'Postgres' }] },
        {
          id: 'features',
          answers: ['Auth', 'Tests', 'audit \u001b[31mlog'],
          options: [{ label: 'Auth' }, { label: 'Tests' }],
          custom: 'audit \u001b[31mlog',
        },
        { id: 'name', answers: ['shop'], options: [], custom: 'shop' },
      ],
    });
    const { terminal } = startAgent({
      model: createScriptedModel(script),
      session: opened,
      columns: 80,
    });
    const screen = await waitForPrompt(terminal);
    expect(screen).toContain(
      [
        'Three at once.',
        '✔ Database · Postgres',
        '✔ Which features? · Auth, Tests, audit ^[[31mlog',
        '✔ Name · shop',
        'Noted Auth, Tests, audit ^[[31mlog.',
      ].join('\n'),
    );
    expect(screen).toContain('Again.\n✖ Database · declined\nFine.');
  });

  it('shows the last three turns of a longer one, and a demo cut short by a cancel asks its question again', async () => {
    const store = openSessionStore({ dir: temporaryStateFolder() });
    const id = await earlierRun(store, '/', { steps: [{ text: 'Ok.' }] }, [
      { prompt: 'one' },
      { prompt: 'two' },
      { prompt: 'three' },
      { prompt: 'four' },
    ]);
    const { terminal } = startAgent({
      model: createScriptedModel({ steps: [{ text: 'Ok.' }] }),
      session: await store.open(id),
    });
    const screen = await waitForPrompt(terminal);
    expect(screen).toContain('Resumed conversation (4 turns; the last 3 shown):\n> two\nOk.\n');
    expect(screen).not.toContain('> one');

    const demoStore = openSessionStore({ dir: temporaryStateFolder() });
    const session = demoStore.create({ cwd: '/' });
    const first = startAgent({ model: createScriptedModel(DEMO_SCRIPT), session });
    await waitForPrompt(first.terminal);
    first.type('plan');
    await first.terminal.waitFor('❯ 1. TypeScript');
    first.terminal.press(KEYS.down, KEYS.enter);
    await first.terminal.waitFor('What should the project be called?');
    first.terminal.press(KEYS.ctrlC);
    await first.terminal.waitFor('⊘ Turn cancelled.');
    first.terminal.press('\u0004');
    expect(await first.exit).toBe(0);

    const again = startAgent({
      model: createScriptedModel(DEMO_SCRIPT),
      session: await demoStore.open(session.id),
      columns: 200,
    });
    const resumed = await waitForPrompt(again.terminal);
    expect(resumed).toContain(
      [
        '✔ Language · Go',
        'Noted: Go. The next question has no options: type the answer.',
        '✖ Project name · cancelled',
        '⊘ Turn cancelled. Type your next message to go on.',
      ].join('\n'),
    );
    again.type('go on');
    await again.terminal.waitFor(
      /> go on\nNoted: Go\. The next question has no options: type the answer\.\n[\s\S]*What should the project be called\?/,
    );
  });

  it('says how to come back to a saved conversation when the person quits, and only then', async () => {
    const store = openSessionStore({ dir: temporaryStateFolder() });
    expect(await quitAfter(['hello'], store.create({ cwd: '/' }))).toContain(
      'To come back to this conversation: dsh-stdio-agent --continue',
    );
    // Nothing said: no turn, or nothing saved.
    expect(await quitAfter([], store.create({ cwd: '/' }))).not.toContain('To come back');
    expect(await quitAfter(['hello'])).not.toContain('To come back');
  });
});

describe('a resumed conversation in plain mode', () => {
  it('wraps the text of its past turns at words, with no escape sequence', async () => {
    const store = openSessionStore({ dir: temporaryStateFolder() });
    const script: Script = {
      steps: [{ text: "Plain mode wraps the agent's text at words." }],
    };
    const id = await earlierRun(store, '/', script, [{ prompt: 'first' }]);
    const model = createScriptedModel(script);
    const { terminal } = startAgent({
      model,
      session: await store.open(id),
      columns: 20,
      plain: true,
    });
    await terminal.waitFor('words.');
    const rows = (await terminal.screen()).map((row) => row.trimEnd());
    const start = rows.indexOf('Plain mode wraps');
    // Rows of 19, as the live text of plain mode; the terminal's own wrap would cut "words".
    expect(rows.slice(start, start + 3)).toEqual([
      'Plain mode wraps',
      "the agent's text at",
      'words.',
    ]);
    expect(terminal.written).not.toContain('\u001b');
  });
});
