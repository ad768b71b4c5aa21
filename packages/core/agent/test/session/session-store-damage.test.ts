import { appendFileSync, statSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isSessionError } from '../../src/session/session-error.js';
import { openSessionStore } from '../../src/session/session-store.js';
import { collect, endOf, expectValidConversation } from '../support/harness.js';
import { agentOn, rejection, TWO_QUESTIONS } from '../support/session-agents.js';
import { lockFiles, sessionLines, sessionPath, stateFolder } from '../support/session-files.js';

describe('the session store', () => {
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
});
