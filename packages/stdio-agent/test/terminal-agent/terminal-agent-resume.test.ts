import { utimesSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import {
  type AgentRunCommand,
  createAgent,
  createScriptedModel,
  DEMO_SCRIPT,
  openSessionStore,
  type Script,
  type SessionStore,
} from 'dsh-agent';
import {
  recordingModel,
  removeTemporaryStateFolders,
  sessionFilePath,
  temporaryStateFolder,
} from 'dsh-agent/testing';
import { createUserInteraction } from 'dsh-user-interaction';
import { createScriptedProvider, type ScriptedAnswer } from 'dsh-user-interaction/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseSession } from '../../src/terminal-agent/terminal-session.js';
import { startAgent, stopAgents, waitForPrompt } from '../support/agent-harness.js';
import { KEYS } from '../support/fake-terminal.js';

afterEach(async () => {
  await stopAgents();
  removeTemporaryStateFolders();
});

/** Runs turns in a new session of `store` (in `cwd`), as an earlier run of the program did. */
async function earlierRun(
  store: SessionStore,
  cwd: string,
  script: Script,
  turns: readonly { prompt: string; answers?: ScriptedAnswer[] }[],
): Promise<string> {
  const session = store.create({ cwd });
  const interaction = createUserInteraction();
  const provider = createScriptedProvider();
  interaction.registerProvider(provider);
  const agent = createAgent({
    model: createScriptedModel(script),
    interaction,
    recorder: session.recorder,
  });
  for (const { prompt, answers = [] } of turns) {
    provider.enqueue(...answers);
    for await (const _event of agent.run(prompt)) {
      // Played to its end.
    }
  }
  await session.close();
  return session.id;
}

function command(flags: string[] = [], values: [string, string][] = []): AgentRunCommand {
  return { kind: 'run', history: true, flags: new Set(flags), values: new Map(values) };
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
                  {
                    id: 'db',
                    header: 'Database',
                    question: 'Which database?',
                    options: [{ label: 'SQLite' }, { label: 'Postgres' }],
                  },
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
                questions: [{ id: 'db', header: 'Database', question: 'Which database?' }],
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
});

describe('the session flags', () => {
  it('--continue opens the newest session of the folder; --sessions lists them; neither with --no-history', async () => {
    const store = openSessionStore({ dir: temporaryStateFolder() });
    const older = await earlierRun(store, '/a', { steps: [{ text: 'Ok.' }] }, [
      { prompt: 'older' },
    ]);
    const newer = await earlierRun(store, '/a', { steps: [{ text: 'Ok.' }] }, [
      { prompt: 'newer' },
    ]);
    await earlierRun(store, '/b', { steps: [{ text: 'Ok.' }] }, [{ prompt: 'elsewhere' }]);
    // The older one was last active a minute earlier (file times can be coarse).
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(sessionFilePath(store.dir, older), minuteAgo, minuteAgo);
    const said: string[] = [];
    const stdout = new PassThrough();
    let printed = '';
    stdout.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
    });
    const context = {
      say: (line: string) => void said.push(line),
      stdout,
      cwd: '/a',
      usageHint: '(try it --help)',
    };

    const continued = await chooseSession(command(['continue']), store, context);
    expect(continued.kind === 'run' && continued.session?.id).toBe(newer);
    if (continued.kind === 'run') await continued.session?.close();

    expect(await chooseSession(command(['sessions']), store, context)).toEqual({
      kind: 'exit',
      code: 0,
    });
    const lines = printed.split('\n');
    expect(lines.slice(0, 2).map((line) => line.split('  ')[0])).toEqual([newer, older]);
    expect(lines[0]).toMatch(/ {2}newer$/);
    expect(printed).not.toContain('elsewhere');

    const fresh = await chooseSession(command(), store, context);
    expect(fresh.kind === 'run' && fresh.session?.entries).toEqual([]);
    expect(await chooseSession(command(['continue']), undefined, context)).toEqual({
      kind: 'exit',
      code: 2,
    });
    expect(said).toEqual([
      '--continue needs the saved conversations: leave out --no-history (try it --help)',
    ]);
    expect(await chooseSession(command(), undefined, context)).toEqual({
      kind: 'run',
      session: undefined,
    });
  });
});
