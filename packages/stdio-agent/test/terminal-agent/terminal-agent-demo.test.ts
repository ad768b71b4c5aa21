import { createScriptedModel, DEMO_SCRIPT } from 'dsh-agent';
import { DEMO_DESCRIPTION } from 'dsh-agent/command-line';
import { describe, expect, it, vi } from 'vitest';
import { KEYS } from '../../src/testing.js';
import { lastLine, startAgent, waitForPrompt } from '../support/agent-harness.js';
import { playKeySteps, typedLine } from '../support/key-steps.js';

function demo() {
  return startAgent({
    model: createScriptedModel(DEMO_SCRIPT, { name: 'demo' }),
    modelDescription: DEMO_DESCRIPTION,
    columns: 120,
  });
}

/** The rows that start with the prompt. */
function promptRows(screen: string): string[] {
  return screen.split('\n').filter((line) => line.startsWith('> ') || line === '>');
}

describe('the terminal agent on the demo', () => {
  it('says which model runs, then answers the demo with arrows, digits and typed text', async () => {
    const { terminal, exit, type } = demo();
    expect(await waitForPrompt(terminal)).toBe(
      [
        `Model: ${DEMO_DESCRIPTION}`,
        'Type a message and press Enter. Ctrl+C cancels a turn; Ctrl+D quits.',
        '> ',
      ].join('\n'),
    );

    await playKeySteps(terminal, [
      [typedLine('hello'), '❯ 1. TypeScript (recommended)'],
      [[KEYS.down, KEYS.down], '❯ 3. Python'],
      [KEYS.enter, 'What should the project be called?'],
      // Three questions at once: a page each, then the review, which Enter submits.
      [typedLine('my-app'), 'Which database should my-app use?'],
    ]);
    expect(await terminal.text()).toContain(
      'Question 1 of 3  [Database] · Features · License · Review',
    );
    await playKeySteps(terminal, [
      ['2', 'Question 2 of 3'],
      [[' ', '3'], '[x] API docs'],
      [KEYS.enter, '❯ 1. ( ) MIT (recommended)'],
      [KEYS.enter, 'Review your answers'],
      [KEYS.enter, 'Where will my-app run?'],
      ['1', 'That is the plan.'],
    ]);
    const screen = await waitForPrompt(terminal);
    expect(screen).toContain(
      [
        '> hello',
        'Hi! I am the dsh demo agent. I run offline from a script, to show how an agent can stop in the middle of its work and ',
        "ask you questions. Let's plan a small web service together.",
        '✔ Language · Python',
      ].join('\n'),
    );
    expect(screen.slice(screen.indexOf('✔ Language'))).toBe(
      [
        '✔ Language · Python',
        'Noted: Python. The next question has no options: type the answer.',
        '✔ Project name · my-app',
        'Next, three questions at once: their answers go back together.',
        '✔ Database · SQLite',
        '✔ Features · Authentication, API docs',
        '✔ License · MIT',
        'Last question: this one takes one of its options only.',
        '✔ Hosting · Containers',
        'Here is the plan:',
        '',
        '- Project: my-app',
        '- Language: Python',
        '- Database: SQLite',
        '- Features: Authentication, API docs',
        '- License: MIT',
        '- Hosting: containers',
        '',
        'That is the plan. Send another message and I will write it into PLAN.md, in the scratch folder this demo works in: you ',
        'approve the edit and the command first.',
        '',
        '> ',
      ].join('\n'),
    );
    // No menu is left on screen, and the terminal is the prompt's again.
    expect(screen).not.toContain('Esc decline');
    expect(terminal.cursorHidden()).toBe(false);
    expect(terminal.input.isRaw).toBe(true);

    // The conversation goes on: the next message plays the demo's second part (here, with no
    // workspace tools, each of its calls fails), and the one after starts the demo again.
    type('write it');
    await terminal.waitFor('That is the whole demo: questions, an edit and a command');
    await waitForPrompt(terminal);
    type('and now?');
    await terminal.waitFor(/> and now\?\nHi! I am the dsh demo agent\.[\s\S]*❯ 1\. TypeScript/);
    terminal.press(KEYS.ctrlC);
    await terminal.waitFor('⊘ Turn cancelled.');
    await waitForPrompt(terminal);

    terminal.press('\u0004');
    expect(await exit).toBe(0);
    expect(terminal.input.isRaw).toBe(false);
    expect(terminal.rawModes.at(-1)).toBe(false);
    expect(await lastLine(terminal)).toBe('> ');
    expect(terminal.cursor().x).toBe(0);
  });

  it('wraps the status lines at spaces in a narrow terminal', async () => {
    const { terminal } = startAgent({
      model: createScriptedModel(DEMO_SCRIPT),
      modelDescription: DEMO_DESCRIPTION,
      columns: 50,
    });
    expect(await waitForPrompt(terminal)).toBe(
      [
        'Model: built-in demo (offline, scripted); set',
        'DEEPSEEK_API_KEY or pass --base-url to use a real',
        'model',
        'Type a message and press Enter. Ctrl+C cancels a',
        'turn; Ctrl+D quits.',
        '> ',
      ].join('\n'),
    );
  });

  it('takes a typed answer where the question allows one; a blank line starts no turn', async () => {
    const { terminal, type } = demo();
    await waitForPrompt(terminal);
    type('   ');
    await vi.waitFor(async () => expect(promptRows(await terminal.text())).toHaveLength(2));
    type('start');
    await terminal.waitFor('❯ 1. TypeScript');
    terminal.press(KEYS.enter);
    await terminal.waitFor('What should the project be called?');
    type('shop');
    await terminal.waitFor('Which database should shop use?');
    type('DuckDB');
    await terminal.waitFor('Question 2 of 3');
    // A typed answer next to no tick is an answer too.
    terminal.press(KEYS.end, 'l', 'o', 'g', 's', KEYS.enter);
    await terminal.waitFor('Question 3 of 3');
    terminal.press(KEYS.enter);
    await terminal.waitFor('Review your answers');
    terminal.press(KEYS.enter);
    await terminal.waitFor('Where will shop run?');
    terminal.press(KEYS.up, KEYS.enter);
    await terminal.waitFor('That is the plan.');
    const screen = await waitForPrompt(terminal);
    expect(screen).toContain('✔ Database · DuckDB\n✔ Features · logs\n✔ License · MIT');
    expect(screen).toContain(
      '- Database: DuckDB\n- Features: logs\n- License: MIT\n- Hosting: a virtual machine',
    );
    expect(promptRows(screen)).toEqual(['>    ', '> start', '> ']);
  });

  it('runs lines typed ahead one after another, each shown after its own prompt', async () => {
    const { terminal } = startAgent({
      model: createScriptedModel({ steps: [{ text: 'First reply.' }, { text: 'Second reply.' }] }),
    });
    await waitForPrompt(terminal);
    // A paste of two lines: readline has both before the first turn starts.
    terminal.press('one\rtwo\r');
    await terminal.waitFor('Second reply.');
    const screen = await waitForPrompt(terminal);
    expect(screen.slice(screen.indexOf('First reply.'))).toBe(
      ['First reply.', '', '> two', 'Second reply.', '', '> '].join('\n'),
    );
  });
});
