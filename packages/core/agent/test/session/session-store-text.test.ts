// A session's text comes back as it was said, whatever its characters: a file that is all ASCII
// is read by a shorter road than one that is not (see `readSessionFile`), and both must give the
// same text, a torn character included.
import { appendFileSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openSessionStore } from '../../src/session/session-store.js';
import { sessionPath, stateFolder } from '../support/session-files.js';

/** Characters of one, two, three and four bytes in UTF-8; `ÿ` is Latin-1's last. */
const SAID = 'Café ÿ naïve — ☕ 🚀 done';

describe('the text of a session', () => {
  it('comes back as it was said when the file is not all ASCII', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const session = store.create({ cwd: '/' });
    session.recorder.add({ type: 'prompt', text: 'plain ASCII' });
    session.recorder.add({ type: 'assistant', text: SAID });
    session.recorder.add({ type: 'turn-end', reason: 'finished' });
    await session.close();

    const restored = await store.open(session.id);
    expect(restored.warnings).toEqual([]);
    expect(restored.entries).toEqual([
      { type: 'prompt', text: 'plain ASCII' },
      { type: 'assistant', text: SAID },
      { type: 'turn-end', reason: 'finished' },
    ]);
    await restored.close();
  });

  it('skips a last line torn inside a character, and goes on after the line before it', async () => {
    const dir = stateFolder();
    const store = openSessionStore({ dir });
    const session = store.create({ cwd: '/' });
    session.recorder.add({ type: 'prompt', text: 'first' });
    session.recorder.add({ type: 'turn-end', reason: 'finished' });
    await session.close();
    const path = sessionPath(dir, session.id);
    const whole = readFileSync(path);
    // The first of the two bytes of `é`: the program stopped in the middle of the character.
    appendFileSync(path, Buffer.from('{"v":1,"type":"prompt","text":"caf\xc3', 'latin1'));

    const restored = await store.open(session.id);
    expect(restored.warnings).toEqual([
      expect.stringMatching(/^skipped the last line of .+ \(it is not JSON\)/),
    ]);
    expect(restored.entries).toHaveLength(2);
    // The torn line is cut off where it began: the file is as it was before it.
    expect(readFileSync(path)).toEqual(whole);
    restored.recorder.add({ type: 'prompt', text: SAID });
    restored.recorder.add({ type: 'turn-end', reason: 'finished' });
    await restored.close();

    const reopened = await store.open(session.id);
    expect(reopened.warnings).toEqual([]);
    expect(reopened.entries.filter((entry) => entry.type === 'prompt')).toEqual([
      { type: 'prompt', text: 'first' },
      { type: 'prompt', text: SAID },
    ]);
    await reopened.close();
  });
});
