import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { assertBuilt, BIN } from '../support/bin-process.js';
import { type PtySession, startPtySession, stopPtySessions } from '../support/pty-session.js';

const repositoryRoot = fileURLToPath(new URL('../../../..', import.meta.url));
const ESC = '\u001b';
const BEL = '\u0007';
const PUSH_TITLE = `${ESC}[22;0t${ESC}]0;◉ dsh: a question waits for you${BEL}`;
const POP_TITLE = `${ESC}[23;0t`;
const QUESTION = 'Which language should the new service be written in?';

afterEach(stopPtySessions);
beforeAll(assertBuilt);

/** The demo in a real terminal that says it is `env`'s terminal (and no other). */
function runAgent(env: Record<string, string>, flags = ''): PtySession {
  return startPtySession(`node '${BIN}' ${flags}`, {
    columns: 100,
    rows: 40,
    cwd: repositoryRoot,
    env: {
      DEEPSEEK_API_KEY: '',
      DSH_API_KEY: '',
      TERM_PROGRAM: '',
      KITTY_WINDOW_ID: '',
      VTE_VERSION: '',
      KONSOLE_VERSION: '',
      TMUX: '',
      DSH_NOTIFY: '',
      ...env,
    },
  });
}

function agentPid(session: PtySession): number {
  const children = readFileSync(
    `/proc/${session.shellPid}/task/${session.shellPid}/children`,
    'utf8',
  );
  return Number(children.trim().split(/\s+/)[0]);
}

async function atFirstQuestion(session: PtySession): Promise<void> {
  await session.waitFor(/Ctrl\+D quits\.\n>$/);
  session.write('hello\r');
  await session.waitFor('❯ 1. TypeScript (recommended)');
  await vi.waitFor(() => expect(session.raw()).toContain(`${PUSH_TITLE}${ESC}[?1004h`));
}

describe('telling the person that a question waits, in a real terminal', () => {
  it('marks the title, notifies iTerm2 with OSC 9 when it leaves the front, and restores the title on SIGTERM', async () => {
    const session = runAgent({ TERM_PROGRAM: 'iTerm.app' });
    await atFirstQuestion(session);
    session.write(`${ESC}[O`);
    await vi.waitFor(() =>
      expect(session.raw()).toContain(`${ESC}]9;A question waits for you: ${QUESTION}${BEL}`),
    );
    process.kill(agentPid(session), 'SIGTERM');
    await session.waitFor('done');
    const raw = session.raw();
    expect(raw.lastIndexOf(POP_TITLE)).toBeGreaterThan(raw.lastIndexOf(PUSH_TITLE));
    expect(raw.lastIndexOf(`${ESC}[?1004l`)).toBeGreaterThan(raw.lastIndexOf(`${ESC}[?1004h`));
    expect(raw.split(`${ESC}]9;`)).toHaveLength(2);
  });

  it('speaks kitty’s OSC 99 to kitty, and gives the title back once the question is answered', async () => {
    const session = runAgent({ TERM: 'xterm-kitty', KITTY_WINDOW_ID: '3' });
    await atFirstQuestion(session);
    session.write(`${ESC}[O`);
    await vi.waitFor(() =>
      expect(session.raw()).toContain(
        `${ESC}]99;i=1:d=0;A question waits for you${ESC}\\${ESC}]99;i=1:p=body;${QUESTION}${ESC}\\`,
      ),
    );
    session.write('1');
    await session.waitFor('What should the project be called?');
    const raw = session.raw();
    const answered = raw.indexOf('What should the project be called?');
    expect(raw.indexOf(POP_TITLE)).toBeGreaterThan(-1);
    expect(raw.indexOf(POP_TITLE)).toBeLessThan(answered);
    // Focus reports are never typed into an answer.
    session.write(`${ESC}[I`);
    session.write('shop');
    session.write(`${ESC}[O`);
    session.write('\r');
    expect(await session.waitFor('Project name · shop')).not.toContain('[I');
    process.kill(agentPid(session), 'SIGTERM');
    await session.waitFor('done');
  });

  it('sends nothing in plain mode, or with --notify off', async () => {
    for (const flags of ['--plain', '--notify off']) {
      const session = runAgent({ TERM_PROGRAM: 'iTerm.app' }, flags);
      await session.waitFor(/Ctrl\+D quits\.\n>/);
      session.write('hello\r');
      await session.waitFor('TypeScript');
      session.write(`${ESC}[O`);
      process.kill(agentPid(session), 'SIGTERM');
      await session.waitFor('done');
      expect(session.raw()).not.toContain(`${ESC}]9;`);
      expect(session.raw()).not.toContain(`${ESC}[22;0t`);
      expect(session.raw()).not.toContain(`${ESC}[?1004h`);
      stopPtySessions();
    }
  });
});
