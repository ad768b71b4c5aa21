import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  deferred,
  REASONING_NOT_PASSED_BACK,
  removeTemporaryStateFolders,
  STAND_IN_QUESTION,
  temporaryStateFolder,
} from 'dsh-agent/testing';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { KEYS } from '../../src/testing.js';
import { assertBuilt, BIN, startBin } from '../support/bin-process.js';
import { closeStandIns, standIn, standInFlags } from '../support/deepseek-stand-ins.js';
import { startPtySession, stopPtySessions } from '../support/pty-session.js';

beforeAll(assertBuilt);

afterEach(async () => {
  stopPtySessions();
  removeTemporaryStateFolders();
  await closeStandIns();
});

/**
 * A stand-in whose first answer thinks until `thinking` resolves, then asks the stand-in
 * question; its next answer paints the fence with the answer.
 */
async function askingAfterThought() {
  const thinking = deferred();
  let first = true;
  const server = await standIn({
    reply: () => {
      if (!first) return { reasoning: 'Done.', content: 'Painting the fence Blue.' };
      first = false;
      return {
        reasoning: 'Hmm, a fence.',
        content: 'Let me ask first.',
        toolCalls: [{ name: 'ask_user_question', arguments: STAND_IN_QUESTION }],
        afterReasoning: thinking.promise,
      };
    },
  });
  return { thinking, server };
}

/** The bin in a real terminal on the stand-in's DeepSeek model, with `flags`. */
function terminalOn(server: { url: string; apiKey: string }, flags: readonly string[]) {
  return startPtySession(
    `node '${BIN}' ${flags.map((flag) => `${flag} `).join('')}--base-url '${server.url}' --model deepseek-flash`,
    {
      columns: 100,
      rows: 30,
      cwd: fileURLToPath(new URL('.', import.meta.url)),
      env: { DEEPSEEK_API_KEY: '', DSH_API_KEY: server.apiKey },
    },
  );
}

// Piped runs are tested in-process (program-deepseek.test.ts); here a kill -9 and a real terminal.
describe('dsh-stdio-agent against a stand-in for DeepSeek', () => {
  it('a kill -9 while its question waits: --continue asks it again and the answer reaches the model, reasoning passed back intact', async () => {
    const server = await standIn();
    const stateDir = temporaryStateFolder();
    const args = standInFlags(server.url, '--state-dir', stateDir);
    const env = { DSH_API_KEY: server.apiKey };
    const cwd = mkdtempSync(join(stateDir, 'project-'));
    const first = startBin(args, env, { cwd });
    first.write('Paint the fence\n');
    await first.waitForOutput(STAND_IN_QUESTION.question);
    first.kill();
    await first.done;
    expect(server.requests).toHaveLength(1);

    // On a terminal (plain mode: line by line), the question comes again.
    const flagsText = args.map((arg) => `'${arg}'`).join(' ');
    const resumed = startPtySession(`node '${BIN}' ${flagsText} --plain --continue`, {
      columns: 120,
      rows: 40,
      cwd,
      env: { DEEPSEEK_API_KEY: '', DSH_API_KEY: server.apiKey },
    });
    await resumed.waitFor(/Choose 1-\d[^\n]*:$/);
    resumed.write('2\r');
    await resumed.waitFor(/Painting the fence Blue\.\n\n>$/);
    resumed.write('\u0004');
    const screen = await resumed.waitFor(/\ndone$/);
    expect(screen).toContain('exit=0');
    expect(screen).toContain('The agent stopped while a question waited for you');
    expect(screen).toContain('✔ Colour · Blue');
    expect(screen).not.toContain(REASONING_NOT_PASSED_BACK);
    await resumed.finish();
    // No second first request: the step stored before the kill is what the model gets back.
    expect(server.requests.map((request) => request.status)).toEqual([200, 200]);
    const messages = server.requests[1]?.body.messages as Record<string, unknown>[];
    const step = messages.find((message) => message.tool_calls !== undefined);
    // The stand-in answers 400 unless this is exactly the reasoning it streamed with the call.
    expect(step?.reasoning_content).toBe(
      'The person wants a fence painted. I need the colour. I will ask.',
    );
    expect(messages.at(-1)).toMatchObject({ role: 'tool' });
    expect(String(messages.at(-1)?.content)).toContain('Blue');
    expect(messages.filter((message) => message.role === 'user')).toHaveLength(1);
  });

  it('in plain mode, Ctrl+D while the model works is ignored: the program quits only at the prompt', async () => {
    const thinking = deferred();
    let first = true;
    const server = await standIn({
      reply: () => {
        if (!first) return { reasoning: 'Done.', content: 'Second turn.' };
        first = false;
        return {
          reasoning: 'Hmm, a fence.',
          content: 'First turn.',
          afterReasoning: thinking.promise,
        };
      },
    });
    const session = terminalOn(server, ['--plain']);
    await session.waitFor(/Ctrl\+D quits\.\n>$/);
    // The message, Ctrl+D, and a line typed ahead, in one go: the terminal hands them over in
    // that order, each read apart, so the key comes once the turn has started and before the
    // model answers (the stand-in holds its answer until the test lets it go). Had the key
    // ended the input, the line would never be read.
    session.write('Paint the fence\r\u0004and the gate\r');
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    thinking.resolve();
    const screen = await session.waitFor(/Second turn\.\n\n>$/);
    expect(screen).toContain('First turn.');
    // The line typed ahead was read after the key, and sent as the next message.
    expect(server.requests).toHaveLength(2);
    const messages = server.requests[1]?.body.messages as { role: string; content: unknown }[];
    expect(messages.filter((message) => message.role === 'user').at(-1)?.content).toBe(
      'and the gate',
    );
    expect(screen).not.toContain('exit=');
    session.write('\u0004');
    await session.waitFor('exit=0');
    await session.finish();
  });

  it('shows "Thinking…" in a real terminal while the model reasons', async () => {
    const { thinking, server } = await askingAfterThought();
    const session = terminalOn(server, []);
    await session.waitFor(/Ctrl\+D quits\.\n>$/);
    session.write('Paint the fence\r');
    await session.waitFor(/Thinking… \d+ s · Ctrl\+C cancels$/);
    thinking.resolve();
    await session.waitFor(STAND_IN_QUESTION.question);
    session.write(KEYS.enter);
    // The prompt comes back once the turn's end is saved: Ctrl+D quits there.
    await session.waitFor(/Painting the fence Blue\.\n\n>$/);
    expect(await session.text()).not.toContain('Thinking…');
    session.write('\u0004');
    await session.waitFor('exit=0');
    await session.finish();
  });
});
