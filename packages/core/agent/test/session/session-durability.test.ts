// What becomes durable when: every fsync the store asks for is seen (with the size of the file
// it syncs at that moment), so a power failure can be played by cutting a file back to what
// its last fsync covered.
import { statSync, truncateSync } from 'node:fs';
import type { UserInteraction } from 'dsh-user-interaction';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createAgent } from '../../src/loop/create-agent.js';
import type { Script } from '../../src/script/script.js';
import { createScriptedModel } from '../../src/script/scripted-model.js';
import { openSessionStore } from '../../src/session/session-store.js';
import type { StoredSession } from '../../src/session/stored-session.js';
import { collect, endOf, scriptedAgent } from '../support/harness.js';
import { sessionLines, sessionPath, stateFolder } from '../support/session-files.js';

interface Fsync {
  /** The inode synced, and whether it is a folder. */
  readonly ino: number;
  readonly folder: boolean;
  /** The file's size when the fsync was asked for: what it makes durable. */
  readonly size: number;
  done: boolean;
}

const seen = vi.hoisted(() => ({ fsyncs: [] as Fsync[] }));

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  const fsync = ((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
    const stats = actual.fstatSync(fd);
    const entry: Fsync = {
      ino: stats.ino,
      folder: stats.isDirectory(),
      size: stats.size,
      done: false,
    };
    seen.fsyncs.push(entry);
    actual.fsync(fd, (error) => {
      entry.done = true;
      callback(error);
    });
  }) as typeof actual.fsync;
  return { ...actual, fsync, default: { ...actual, fsync } };
});

const ONE_QUESTION: Script = {
  steps: [
    {
      text: 'One question.',
      toolCalls: [
        {
          id: 'db',
          name: 'ask_user_question',
          arguments: {
            question: 'Database?',
            options: [{ label: 'PostgreSQL' }, { label: 'SQLite' }],
          },
        },
      ],
    },
    { text: 'Using {{answer:db}}.' },
  ],
};

beforeEach(() => {
  seen.fsyncs.length = 0;
});

/** A new session in a new state folder, and an agent on `script` that records into it. */
function recordedAgent(script: Script) {
  const dir = stateFolder();
  const store = openSessionStore({ dir });
  const session = store.create({ cwd: '/' });
  return {
    dir,
    store,
    session,
    ...scriptedAgent(script, { agent: { recorder: session.recorder } }),
  };
}

/** A new agent on the restored session has no turn to go on with. */
function expectNotResumable(restored: StoredSession, interaction: UserInteraction): void {
  const again = createAgent({
    model: createScriptedModel(ONE_QUESTION),
    interaction,
    conversation: restored.entries,
    recorder: restored.recorder,
  });
  expect(again.resumable).toBe(false);
}

describe('durability of a session', () => {
  it('costs one fsync between an answer and the agent going on; the folder is synced while the question waits, and the turn’s end is not synced', async () => {
    const { dir, store, session, agent, provider, interaction } = recordedAgent(ONE_QUESTION);
    const held = provider.hold();
    const turn = (async () => {
      const events: { type: string; fileFsyncs: number }[] = [];
      for await (const event of agent.run('Which database?')) {
        const ino = statSync(sessionPath(dir, session.id)).ino;
        events.push({
          type: event.type,
          fileFsyncs: seen.fsyncs.filter((sync) => sync.ino === ino && sync.done).length,
        });
      }
      return events;
    })();
    const question = await held;
    const ino = statSync(sessionPath(dir, session.id)).ino;
    const fileFsyncs = () => seen.fsyncs.filter((sync) => sync.ino === ino);
    // The new file's name is made durable while the person thinks, not after the answer.
    await vi.waitFor(() =>
      expect(seen.fsyncs.filter((sync) => sync.folder && sync.done)).toHaveLength(1),
    );
    expect(fileFsyncs()).toEqual([]);
    question.answer({ label: 'SQLite' });
    const events = await turn;

    const result = events.find((event) => event.type === 'tool-result');
    // The answer's fsync had completed when the agent went on with it.
    expect(result?.fileFsyncs).toBe(1);
    expect(events.at(-1)).toEqual({ type: 'turn-end', fileFsyncs: 1 });
    // One fsync in the whole turn, covering everything up to the answer.
    const [answer] = fileFsyncs();
    expect(fileFsyncs()).toHaveLength(1);
    const lines = sessionLines(dir, session.id);
    expect(lines.map((line) => line.type)).toEqual([
      'session',
      'prompt',
      'assistant',
      'posed',
      'tool-result',
      'assistant',
      'turn-end',
    ]);
    expect(seen.fsyncs.filter((sync) => sync.folder)).toHaveLength(1);

    // Closing makes the rest durable too.
    await session.close();
    expect(fileFsyncs()).toHaveLength(2);
    expect(fileFsyncs()[1]?.size).toBe(statSync(sessionPath(dir, session.id)).size);

    // A power failure right after the turn: the file is what the answer's fsync covered. The
    // answer is there; nothing waits any more, so the turn is closed as interrupted and the
    // next message goes on from the answer (a turn goes on by itself only while a question
    // or an approval waits).
    truncateSync(sessionPath(dir, session.id), answer?.size);
    const restored = await store.open(session.id);
    expect(restored.entries.map((entry) => entry.type)).toEqual([
      'prompt',
      'assistant',
      'posed',
      'tool-result',
      'turn-end',
    ]);
    expect(restored.entries[3]).toMatchObject({ result: { output: 'SQLite' } });
    expect(restored.entries[4]).toEqual({
      type: 'turn-end',
      reason: 'cancelled',
      interrupted: true,
    });
    expectNotResumable(restored, interaction);
    await restored.close();
    provider.dispose();
  });

  it('syncs the end of a cancelled turn: a power failure never lets the turn go on where the person stopped it', async () => {
    const { dir, store, session, agent, provider, interaction } = recordedAgent(ONE_QUESTION);
    const held = provider.hold();
    const controller = new AbortController();
    const turn = collect(agent.run('Which database?', { signal: controller.signal }));
    await held;
    const ino = statSync(sessionPath(dir, session.id)).ino;
    expect(seen.fsyncs.filter((sync) => sync.ino === ino)).toEqual([]);
    controller.abort();
    expect(endOf(await turn)).toMatchObject({ reason: 'cancelled' });
    const types = sessionLines(dir, session.id).map((line) => line.type);
    expect(types.slice(-3)).toEqual(['posed', 'tool-result', 'turn-end']);
    // A power failure before the close: the file is what its last fsync covered, the end
    // included, so the turn stays cancelled.
    const synced = seen.fsyncs.filter((sync) => sync.ino === ino).at(-1)?.size;
    expect(synced).toBe(statSync(sessionPath(dir, session.id)).size);
    await session.close();
    truncateSync(sessionPath(dir, session.id), synced);
    const restored = await store.open(session.id);
    expect(restored.entries.slice(-2)).toEqual([
      expect.objectContaining({
        type: 'tool-result',
        toolCallId: 'db',
        result: expect.objectContaining({ ok: false }),
      }),
      { type: 'turn-end', reason: 'cancelled' },
    ]);
    expectNotResumable(restored, interaction);
    await restored.close();
    provider.dispose();
  });

  it('leaves a turn with no answer unsynced until the session closes: nothing in it is an answer', async () => {
    const { dir, session, agent } = recordedAgent({ steps: [{ text: 'Hello.' }] });
    endOf(await collect(agent.run('Hi')));
    const ino = statSync(sessionPath(dir, session.id)).ino;
    expect(seen.fsyncs.filter((sync) => sync.ino === ino)).toEqual([]);
    expect(sessionLines(dir, session.id).map((line) => line.type)).toEqual([
      'session',
      'prompt',
      'assistant',
      'turn-end',
    ]);
    await session.close();
    expect(seen.fsyncs.filter((sync) => sync.ino === ino)).toHaveLength(1);
  });
});
