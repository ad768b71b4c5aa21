import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startChatServer } from 'dsh-agent/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { KEYS } from '../../src/testing.js';
import { assertBuilt, BIN } from '../support/bin-process.js';
import { playKeySteps } from '../support/key-steps.js';
import {
  expectCookedMode,
  type PtySession,
  startPtySession,
  stopPtySessions,
} from '../support/pty-session.js';

const repositoryRoot = fileURLToPath(new URL('../../../..', import.meta.url));

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  stopPtySessions();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
beforeAll(assertBuilt);

/** Runs the built bin in a real pseudo-terminal, 100x40, on the offline demo. */
function runAgent(): PtySession {
  return startPtySession(`node '${BIN}'`, {
    columns: 100,
    rows: 40,
    scrollback: 500,
    cwd: repositoryRoot,
    env: { DEEPSEEK_API_KEY: '', DSH_API_KEY: '' },
  });
}

/** The process id of the agent: Linux lists the shell's one child while the agent runs. */
function agentPid(session: PtySession): number {
  const children = readFileSync(
    `/proc/${session.shellPid}/task/${session.shellPid}/children`,
    'utf8',
  );
  const pid = Number(children.trim().split(/\s+/)[0]);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error('The agent is not running.');
  return pid;
}

describe('the terminal agent in a real terminal', () => {
  it('answers the demo with arrows, typing and digits, is interrupted by Ctrl+C, quits on Ctrl+D', async () => {
    const session = runAgent();
    await session.waitFor(/Ctrl\+D quits\.\n>$/);
    expect(await session.text()).toContain('Model: built-in demo (offline, scripted)');
    await playKeySteps(session, [
      ['hello\r', '❯ 1. TypeScript (recommended)'],
      [KEYS.down, '❯ 2. Go'],
      [KEYS.enter, 'What should the project be called?'],
      // Three questions at once: Tab between them keeps the answers, and the review submits.
      ['my-app\r', 'Which database should my-app use?'],
      ['2', 'Question 2 of 3'],
      [KEYS.tab, 'Question 3 of 3'],
      [KEYS.shiftTab, 'Question 2 of 3'],
      [' ', '[x] Authentication'],
      [KEYS.enter, 'Question 3 of 3'],
      ['2', 'Review your answers'],
      [KEYS.enter, 'Where will my-app run?'],
      [KEYS.ctrlC, '⊘ Turn cancelled.'],
    ]);
    await session.waitFor(/Turn cancelled\. Type your next message to go on\.\n\n>$/);

    // The conversation goes on: the script's closing step quotes the answers given.
    // The next message asks the cancelled question again, then sums up.
    session.write('sum it up\r');
    await session.waitFor(/> sum it up\nLast question: this one takes one of its options only\./);
    await session.waitFor('❯ 1. Containers');
    session.write('1');
    await session.waitFor('That is the plan.');
    await session.waitFor(/the command first\.\n\n>$/);
    session.write('\u0004');
    const screen = await session.waitFor('done');

    expect(screen).toContain(
      [
        '✔ Language · Go',
        'Noted: Go. The next question has no options: type the answer.',
        '✔ Project name · my-app',
        'Next, three questions at once: their answers go back together.',
        '✔ Database · SQLite',
        '✔ Features · Authentication',
        '✔ License · Apache-2.0',
        'Last question: this one takes one of its options only.',
        '✖ Hosting · cancelled',
        '⊘ Turn cancelled. Type your next message to go on.',
        '',
        '> sum it up',
        'Last question: this one takes one of its options only.',
        '✔ Hosting · Containers',
        'Here is the plan:',
        '',
        '- Project: my-app',
        '- Language: Go',
        '- Database: SQLite',
        '- Features: Authentication',
        '- License: Apache-2.0',
        '- Hosting: containers',
      ].join('\n'),
    );
    // Quitting a saved conversation says how to come back to it.
    expect(screen).toMatch(
      /the command first\.\n\n>\nTo come back to this conversation: \S.* --continue\nexit=0\n/,
    );
    // No menu was left behind.
    expect(screen).not.toContain('Esc decline');
    expect(session.cursorHidden()).toBe(false);
    expectCookedMode(screen);
    expect((await session.finish()).exitCode).toBe(0);
  });

  it('quits on Ctrl+C at an empty prompt, with status 0 and the terminal restored', async () => {
    const session = runAgent();
    await session.waitFor(/Ctrl\+D quits\.\n>$/);
    await playKeySteps(session, [
      ['half a line', '> half a line'],
      [KEYS.ctrlC, /Ctrl\+D quits\.\n>$/],
    ]);
    session.write(KEYS.ctrlC);
    const screen = await session.waitFor('done');
    expect(screen).toMatch(/Ctrl\+D quits\.\n>\nexit=0\n/);
    expectCookedMode(screen);
    expect(session.cursorHidden()).toBe(false);
    expect((await session.finish()).exitCode).toBe(0);
  });

  it('restores the terminal when it is terminated with a question on screen', async () => {
    const session = runAgent();
    await session.waitFor(/Ctrl\+D quits\.\n>$/);
    session.write('hello\r');
    await session.waitFor('❯ 1. TypeScript (recommended)');
    process.kill(agentPid(session), 'SIGTERM');
    const screen = await session.waitFor('done');
    expect(screen).toContain('⊘ Language · not answered: interrupted\n');
    expect(screen).toContain('exit=143');
    expect(screen).not.toContain('❯ 1. TypeScript');
    expect(session.cursorHidden()).toBe(false);
    expectCookedMode(screen);
    expect((await session.finish()).exitCode).toBe(0);
  });

  // The silences, the retry and the final message with the real wait are checked in-process on a
  // fake clock (terminal-agent-silent-server.test.ts); here, the real program against a real
  // server that never answers, with no time limit that could run out during the test.
  it('says it waits while a server that took the request sends nothing; Ctrl+C cancels', async () => {
    const server = await startChatServer([{ stall: true }]);
    servers.push(server);
    const session = startPtySession(
      `node '${BIN}' --base-url ${server.url} --model m --request-timeout 10m`,
      {
        columns: 100,
        rows: 40,
        cwd: repositoryRoot,
        env: { DEEPSEEK_API_KEY: '', DSH_API_KEY: '' },
      },
    );
    await session.waitFor(/Ctrl\+D quits\.\n>$/);
    session.write('hello\r');
    // The line stays until the turn ends: the screen shows it whenever it is looked at.
    await session.waitFor(/> hello\nWaiting for the model… \d+ s · Ctrl\+C cancels$/);
    expect(server.requests).toHaveLength(1);
    session.write(KEYS.ctrlC);
    await session.waitFor(/> hello\n⊘ Turn cancelled\. Type your next message to go on\.\n\n>$/);
    session.write('\u0004');
    const screen = await session.waitFor('done');
    expect(screen).toContain('exit=0');
    expect(screen).not.toContain('Waiting for the model');
    expectCookedMode(screen);
    expect((await session.finish()).exitCode).toBe(0);
    expect(server.requests).toHaveLength(1);
  });

  it('restores the terminal when it is terminated at the prompt', async () => {
    const session = runAgent();
    await session.waitFor(/Ctrl\+D quits\.\n>$/);
    session.write('typed, not sent');
    await session.waitFor('> typed, not sent');
    process.kill(agentPid(session), 'SIGTERM');
    const screen = await session.waitFor('done');
    expect(screen).toContain('exit=143');
    expect(session.cursorHidden()).toBe(false);
    expectCookedMode(screen);
    expect((await session.finish()).exitCode).toBe(0);
  });
});
