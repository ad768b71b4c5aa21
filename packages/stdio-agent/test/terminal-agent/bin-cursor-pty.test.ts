import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, BIN } from '../support/bin-process.js';
import { startPtySession, stopPtySessions } from '../support/pty-session.js';

const repositoryRoot = fileURLToPath(new URL('../../../..', import.meta.url));
const HIDE_CURSOR = "printf '\\033[?25l'";

afterEach(stopPtySessions);
beforeAll(assertBuilt);

describe('the cursor at the exit of dsh-stdio-agent', () => {
  it.each([
    ['quitting at the prompt', `${HIDE_CURSOR}; node '${BIN}'`, '\u0004'],
    ['listing the saved conversations', `${HIDE_CURSOR}; node '${BIN}' --sessions`, undefined],
  ] as const)(
    'is shown after %s, though the terminal was found with it hidden',
    async (_name, command, key) => {
      const session = startPtySession(command, {
        columns: 100,
        rows: 30,
        cwd: repositoryRoot,
        env: { DEEPSEEK_API_KEY: '', DSH_API_KEY: '' },
      });
      if (key !== undefined) {
        await session.waitFor(/Ctrl\+D quits\.\n>/);
        session.write(key);
      }
      await session.waitFor(/\ndone$/);
      expect(session.raw().slice(0, session.raw().indexOf('exit='))).toContain('\u001b[?25h');
      expect(session.cursorHidden()).toBe(false);
      expect((await session.finish()).exitCode).toBe(0);
    },
  );

  it('is left alone in plain mode, which writes no escape sequence at all', async () => {
    const session = startPtySession(`node '${BIN}' --plain --sessions`, {
      columns: 100,
      rows: 30,
      cwd: repositoryRoot,
    });
    await session.waitFor(/\ndone$/);
    expect(session.raw().slice(0, session.raw().indexOf('exit='))).not.toContain('\u001b[');
    await session.finish();
  });
});
