import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, BIN } from '../support/bin-process.js';
import { expectCookedMode, startPtySession, stopPtySessions } from '../support/pty-session.js';

const repositoryRoot = fileURLToPath(new URL('../../../..', import.meta.url));
const ESCAPE = '\u001b';
/** What the shell prints after the command (its status and `stty -a`) is not the program's. */
const programOutput = (raw: string): string => raw.slice(0, raw.indexOf('exit='));

afterEach(stopPtySessions);
beforeAll(assertBuilt);

describe('plain mode in a real terminal', () => {
  it.each([
    ['--plain', `node '${BIN}' --plain`],
    // The pseudo-terminal sets TERM itself: the command sets it again.
    ['TERM=dumb', `TERM=dumb node '${BIN}'`],
    // Plain mode has no styling even when colours are forced.
    ['--plain with FORCE_COLOR=1', `FORCE_COLOR=1 node '${BIN}' --plain`],
  ] as const)(
    '%s asks as line mode does, with no escape sequence at all',
    async (_name, command) => {
      // Ctrl+C is a signal in plain mode, sent to the shell around the program too: the shell
      // catches it, so that it goes on to print the program's status.
      const session = startPtySession(`trap : INT; ${command}`, {
        columns: 100,
        rows: 40,
        scrollback: 500,
        cwd: repositoryRoot,
        env: { DEEPSEEK_API_KEY: '', DSH_API_KEY: '' },
      });
      await session.waitFor(/Ctrl\+D quits\.\n>$/);
      session.write('hello\r');
      await session.waitFor('Choose 1-4 (Enter: 1; Ctrl+D: decline):');
      session.write('2\r');
      await session.waitFor(/\nAnswer \(Ctrl\+D: decline\):$/);
      session.write('my-app\r');
      await session.waitFor('Choose 1-3 or type your own answer (Ctrl+D: decline all):');
      session.write('2\r');
      await session.waitFor('such as 1,3, and/or =your own answer (Ctrl+D: decline all):');
      session.write('1,2\r');
      await session.waitFor(/License[\s\S]*Choose 1-3 \(Enter: 1; Ctrl\+D: decline all\):$/);
      session.write('\r');
      await session.waitFor(/Where will my-app run\?[\s\S]*Choose 1-3 \(Ctrl\+D: decline\):$/);
      session.write('\u0003');
      await session.waitFor(/Turn cancelled\. Type your next message to go on\.\n\n>$/);
      session.write('\u0004');
      const screen = await session.waitFor(/\ndone$/);

      expect(screen).toContain(
        [
          '? Language',
          '  Which language should the new service be written in?',
          '  1. TypeScript (recommended)',
          '     Node.js with strict types: what the rest of the team uses.',
          '  2. Go',
          '     One static binary that starts fast.',
          '  3. Python',
          '     Quick to write, with a large ecosystem.',
          '  4. Rust',
          '     Fast and safe, but slower to write.',
          'Choose 1-4 (Enter: 1; Ctrl+D: decline): 2',
          '✔ Language · Go',
        ].join('\n'),
      );
      expect(screen).toContain('✔ Project name · my-app\n');
      expect(screen).toContain(
        [
          '✔ Database · SQLite',
          '✔ Features · Authentication, Automated tests',
          '✔ License · MIT',
        ].join('\n'),
      );
      expect(screen).toContain('⊘ Turn cancelled. Type your next message to go on.');
      expect(screen).toContain('exit=0');
      // No menu, no status line, no colour, no cursor movement: not one escape sequence.
      expect(screen).not.toContain('Esc decline');
      expect(programOutput(session.raw())).not.toContain(ESCAPE);
      expectCookedMode(screen);
      expect((await session.finish()).exitCode).toBe(0);
    },
  );

  it('Ctrl+D declines the question on screen (or rejects the approval), and quits only at the prompt', async () => {
    const session = startPtySession(`trap : INT; node '${BIN}' --plain`, {
      columns: 100,
      rows: 40,
      scrollback: 800,
      cwd: repositoryRoot,
      env: { DEEPSEEK_API_KEY: '', DSH_API_KEY: '' },
    });
    await session.waitFor(/Ctrl\+D quits\.\n>$/);
    session.write('hello\r');
    await session.waitFor('Choose 1-4 (Enter: 1; Ctrl+D: decline):');
    session.write('\u0004');
    await session.waitFor('✖ Language · declined');
    await session.waitFor(/\nAnswer \(Ctrl\+D: decline\):$/);
    // Ctrl+D after typed text hands that text over (the terminal reads it as a line of its
    // own, with no Enter), and Ctrl+D then ends that line, as `cat` takes it.
    session.write('my\u0004-app\u0004\u0004');
    await session.waitFor('✔ Project name · my-app');
    await session.waitFor('Choose 1-3 or type your own answer (Ctrl+D: decline all):');
    // Three questions asked together: Ctrl+D declines them all.
    session.write('\u0004');
    await session.waitFor('✖ License · declined');
    await session.waitFor(/Choose 1-3 \(Ctrl\+D: decline\):$/);
    session.write('1\r');
    await session.waitFor(/That is the plan\.[^\n]*\n(.*\n)*>$/);
    session.write('write it\r');
    await session.waitFor(/Allow\? y, n or 1-\d:$/);
    session.write('\u0004');
    await session.waitFor('✖ Overwrite PLAN.md · rejected');
    await session.waitFor(/Run wc -l PLAN\.md[\s\S]*Allow\? y, n or 1-\d:$/);
    session.write('\u0004');
    await session.waitFor('✖ Run wc -l PLAN.md · rejected');
    await session.waitFor(/\n>$/);
    session.write('\u0004');
    const screen = await session.waitFor(/\ndone$/);

    expect(screen).toContain('✖ Database · declined');
    expect(screen).toContain('✖ Features · declined');
    // Both approvals were rejected by the person: neither the edit nor the command ran.
    expect(screen).not.toContain('✔ write_file');
    expect(screen).not.toContain('✔ run_command');
    expect(screen).not.toContain('INPUT_CLOSED');
    expect(screen).not.toContain('input closed');
    expect(screen).toContain('exit=0');
    expect(programOutput(session.raw())).not.toContain(ESCAPE);
    expectCookedMode(screen);
    expect((await session.finish()).exitCode).toBe(0);
  });

  it('NO_COLOR: the menu, the agent and its status lines are drawn without a colour', async () => {
    const session = startPtySession(`node '${BIN}'`, {
      columns: 100,
      rows: 40,
      scrollback: 500,
      cwd: repositoryRoot,
      env: { DEEPSEEK_API_KEY: '', DSH_API_KEY: '', NO_COLOR: '1' },
    });
    await session.waitFor(/Ctrl\+D quits\.\n>$/);
    session.write('hello\r');
    await session.waitFor('❯ 1. TypeScript (recommended)');
    session.write('\u001b[B\r');
    await session.waitFor('✔ Language · Go');
    await session.waitFor('What should the project be called?');
    session.write('\u0003');
    await session.waitFor(/Turn cancelled\. Type your next message to go on\.\n\n>$/);
    session.write('\u0004');
    const screen = await session.waitFor(/\ndone$/);
    expect(screen).toContain('exit=0');
    const output = programOutput(session.raw());
    // The menu moved the cursor (it is not plain mode)...
    expect(output).toContain(`${ESCAPE}[`);
    // ...but set no colour or text attribute; only the reverse-video cell of the editor's cursor.
    const attributes = [...output.matchAll(new RegExp(`${ESCAPE}\\[([0-9;]*)m`, 'g'))].map(
      (match) => match[1],
    );
    expect(attributes.filter((codes) => codes !== '7' && codes !== '27')).toEqual([]);
    expect((await session.finish()).exitCode).toBe(0);
  });
});
