// `search` and `list_files` run without asking, on what the model writes and on what a cloned
// repository holds. Neither may hold the event loop: each test checks that a `setImmediate`
// fired while the call worked, and that a cancel in the middle is honoured.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentEvent, type AgentTool, createAgent, createScriptedModel } from 'dsh-agent';
import { approvedCall } from 'dsh-agent/testing';
import { createUserInteraction } from 'dsh-user-interaction';
import { createScriptedProvider } from 'dsh-user-interaction/testing';
import { describe, expect, it, vi } from 'vitest';
import { createWorkspaceTools, openWorkspace } from '../../src/index.js';
import { WILDCARD_RULES } from '../../src/tools/ignore-rules.js';
import { createSearchTool } from '../../src/tools/search-tool.js';
import { testFileFolder } from '../support/test-folders.js';

const base = testFileFolder('dsh-hostile-');
let count = 0;

/** `(a+)+$` backtracks on a line of a's that does not end there: 2^40 ways to split it. */
const HOSTILE_REGEX = '^(a+)+$';
const HOSTILE_LINE = `${'a'.repeat(40)}!`;

async function setUp(files: Record<string, string>) {
  const folder = join(base, `w${++count}`);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(folder, name, '..'), { recursive: true });
    writeFileSync(join(folder, name), content);
  }
  const workspace = await openWorkspace(folder);
  const tools = createWorkspaceTools({ workspace });
  const tool = (name: string) => tools.find((each) => each.name === name) as AgentTool;
  return { folder, workspace, tools, tool };
}

/** Counts the turns the event loop got while `work` ran, and gives `onTurn` each. */
async function withTurns<T>(work: Promise<T>, onTurn: (turn: number) => void = () => {}) {
  let turns = 0;
  let settled = false;
  const result = work.finally(() => {
    settled = true;
  });
  const tick = () => {
    if (settled) return;
    onTurn(++turns);
    setImmediate(tick);
  };
  setImmediate(tick);
  return { result: await result, turns };
}

/** `folders` folders of `each` files, named so that `*a*a…b` globs try every split of them. */
function longNames(folders: number, each: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let folder = 0; folder < folders; folder++)
    for (let file = 0; file < each; file++)
      files[`${'a'.repeat(60)}${folder}/${'a'.repeat(80)}${file}`] = 'x\n';
  return files;
}

describe('search, with a pattern that backtracks', () => {
  it('stops at the time limit on the file, naming it, and keeps what it found before', async () => {
    const { workspace } = await setUp({ 'a.txt': 'needle\n', 'z.txt': `${HOSTILE_LINE}\n` });
    const search = createSearchTool(workspace, { fileMilliseconds: 500 });
    const { result, turns } = await withTurns(
      approvedCall(search, { pattern: `${HOSTILE_REGEX}|needle` }),
    );
    expect(result.output).toBe(
      'a.txt:1: needle\n(stopped: the pattern took over 0.5 s on z.txt; a pattern that backtracks, such as a repeat of a repeat, can take years on one line: rewrite it)',
    );
    expect(turns).toBeGreaterThan(0);
  });

  it('leaves the event loop free, and a cancelled turn ends the call with TURN_CANCELLED', async () => {
    const { tools } = await setUp({ 'z.txt': `${HOSTILE_LINE}\n`.repeat(3) });
    const model = createScriptedModel({
      steps: [
        {
          text: 'Looking.',
          toolCalls: [{ id: 'c1', name: 'search', arguments: { pattern: HOSTILE_REGEX } }],
        },
        { text: 'Done.' },
      ],
    } as never);
    const interaction = createUserInteraction();
    interaction.registerProvider(createScriptedProvider({ answers: [{ choice: 'allow_once' }] }));
    const agent = createAgent({ id: 'agent-1', model, interaction, tools });
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    let started = false;
    const turn = (async () => {
      for await (const event of agent.run('go', { signal: controller.signal })) {
        events.push(event);
        if (event.type === 'tool-call') started = true;
      }
    })();
    // Ten turns of the event loop after the call started (the old search held it for hours).
    let startedAt: number | undefined;
    const { turns } = await withTurns(turn, (at) => {
      if (started) startedAt ??= at;
      if (startedAt !== undefined && at === startedAt + 10) controller.abort();
    });
    expect(turns).toBeGreaterThan(10);
    expect(events.at(-1)).toMatchObject({ type: 'turn-end', reason: 'cancelled' });
    const result = events.flatMap((event) => (event.type === 'tool-result' ? [event.result] : []));
    expect(result).toMatchObject([{ ok: false, error: { code: 'TURN_CANCELLED' } }]);
  });
});

describe('search threads', () => {
  it('end with their call: thirty searches leave no thread behind', async () => {
    const { tool } = await setUp({ 'a.txt': 'needle\n' });
    const threads = () => readdirSync('/proc/self/task').length;
    await approvedCall(tool('search'), { pattern: 'needle' });
    const before = threads();
    for (let index = 0; index < 30; index++) {
      const controller = new AbortController();
      const call = approvedCall(
        tool('search'),
        { pattern: HOSTILE_REGEX },
        { signal: controller.signal },
      );
      if (index % 2 === 0) controller.abort();
      else await new Promise((resolve) => setImmediate(resolve)).then(() => controller.abort());
      await call;
    }
    await vi.waitFor(() => expect(threads()).toBeLessThanOrEqual(before));
  });
});

describe('list_files, with a glob that backtracks', () => {
  const glob = `**/${'*a'.repeat(25)}b`;

  it('finishes, and gives the event loop its turns', async () => {
    const { tool } = await setUp(longNames(40, 3));
    const { result, turns } = await withTurns(approvedCall(tool('list_files'), { pattern: glob }));
    expect(result.output).toBe('(no file matches)');
    expect(turns).toBeGreaterThan(0);
    const search = await approvedCall(tool('search'), { pattern: 'x', glob });
    expect(search.output).toBe('(no match)');
  });

  it('stops once cancelled, with what it listed so far', async () => {
    const { tool } = await setUp(longNames(100, 2));
    const all = (await approvedCall(tool('list_files'), { pattern: ['**/*0', glob] })).output;
    const controller = new AbortController();
    const { result } = await withTurns(
      approvedCall(tool('list_files'), { pattern: ['**/*0', glob] }, { signal: controller.signal }),
      () => controller.abort(),
    );
    expect(result.output.split('\n').length).toBeLessThan(all.split('\n').length);
    expect(all.startsWith(result.output)).toBe(true);
  });
});

describe('a .gitignore of 100,000 lines from a cloned repository', () => {
  const rules = [
    ...Array.from({ length: 100_000 - 2 * WILDCARD_RULES }, (_, index) =>
      index % 2 === 0 ? `generated-${index}/` : `*.tmp${index}`,
    ),
    ...Array.from({ length: 2 * WILDCARD_RULES - 1 }, (_, index) => `d*/f${index}?`),
    'secret-*.key',
  ].join('\n');
  const files = (): Record<string, string> => {
    const tree: Record<string, string> = { '.gitignore': rules };
    for (let folder = 0; folder < 40; folder++) {
      tree[`d${folder}/keep.ts`] = 'needle\n';
      tree[`d${folder}/f0x`] = 'needle\n';
      tree[`d${folder}/out.tmp1`] = 'needle\n';
      tree[`generated-${folder * 2}/x.ts`] = 'needle\n';
    }
    tree['secret-1.key'] = 'needle\n';
    return tree;
  };

  it('is honoured, its wildcard rules past the limit said, with the event loop free', async () => {
    const { tool } = await setUp(files());
    const { result, turns } = await withTurns(approvedCall(tool('list_files'), {}));
    const lines = result.output.split('\n');
    expect(lines.slice(0, 4)).toEqual(['.gitignore', 'secret-1.key', 'd0/keep.ts', 'd1/keep.ts']);
    expect(lines.filter((line) => /^generated|\.tmp1$|f0x$/.test(line))).toEqual([]);
    // The last rule is past the limit: what it names is listed (above), and the note says why.
    expect(lines.at(-1)).toBe(
      `(.gitignore has ${WILDCARD_RULES} more rules with wildcards than the ${WILDCARD_RULES} applied; the files they name may be listed)`,
    );
    expect(turns).toBeGreaterThan(0);
    const found = await approvedCall(tool('search'), { pattern: 'needle' });
    expect(found.output.split('\n')).toHaveLength(42);
    expect(found.output.split('\n').at(-1)).toBe(lines.at(-1));
  });

  it('stops once cancelled, even while its rules are read', async () => {
    const { tool } = await setUp(files());
    const controller = new AbortController();
    const { result } = await withTurns(
      approvedCall(tool('list_files'), {}, { signal: controller.signal }),
      () => controller.abort(),
    );
    expect(result.output.split('\n')[0]).toBe('(no file matches)');
  });
});
