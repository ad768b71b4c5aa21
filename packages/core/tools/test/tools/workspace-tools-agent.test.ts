import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type AgentEvent,
  type AgentTool,
  createAgent,
  createScriptedModel,
  type ToolContext,
} from 'dsh-agent';
import { createUserInteraction } from 'dsh-user-interaction';
import { createScriptedProvider, type ScriptedAnswer } from 'dsh-user-interaction/testing';
import { describe, expect, it } from 'vitest';
import { createWorkspaceTools, openWorkspace } from '../../src/index.js';
import { expectGone, testFileFolder } from '../support/test-folders.js';

const base = testFileFolder('dsh-tools-agent-');
let count = 0;

/** Waits until the file holds a pid, without sleeping: one turn of the event loop at a time. */
async function pidIn(path: string): Promise<number> {
  for (;;) {
    const text = existsSync(path) ? readFileSync(path, 'utf8').trim() : '';
    if (text !== '') return Number(text);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function setUp(files: Record<string, string> = {}) {
  const folder = join(base, `w${++count}`);
  mkdirSync(folder);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(folder, name), content);
  const workspace = await openWorkspace(folder);
  const tools = createWorkspaceTools({ workspace });
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return { folder, workspace, tools, tool: (name: string) => byName.get(name) as AgentTool };
}

function agentOn(
  tools: AgentTool[],
  steps: { name: string; arguments: unknown }[],
  answers: ScriptedAnswer[],
) {
  const interaction = createUserInteraction();
  const provider = createScriptedProvider({ answers });
  interaction.registerProvider(provider);
  const model = createScriptedModel({
    steps: [
      ...steps.map((step, index) => ({
        text: `Step ${index + 1}.`,
        toolCalls: [{ id: `c${index + 1}`, ...step }],
      })),
      { text: 'Done.' },
    ],
  } as never);
  return { agent: createAgent({ id: 'agent-1', model, interaction, tools }), provider };
}

async function collect(
  turn: AsyncIterable<AgentEvent>,
  onEvent: (event: AgentEvent) => void = () => {},
) {
  const events: AgentEvent[] = [];
  for await (const event of turn) {
    events.push(event);
    onEvent(event);
  }
  return events;
}

const results = (events: AgentEvent[]) =>
  events.flatMap((event) => (event.type === 'tool-result' ? [event.result] : []));

describe('the tools through createAgent', () => {
  it('read, edit and run: each call described, the edit and the command approved, then done', async () => {
    const { tools, folder, workspace } = await setUp({ 'a.txt': 'old line\n' });
    const { agent, provider } = agentOn(
      tools,
      [
        { name: 'read_file', arguments: { path: 'a.txt' } },
        { name: 'edit_file', arguments: { path: 'a.txt', old_text: 'old', new_text: 'new' } },
        { name: 'run_command', arguments: { command: 'cat a.txt; exit 2' } },
      ],
      [{ choice: 'allow_once' }, { choice: 'allow_once' }, { choice: 'allow_once' }],
    );
    const events = await collect(agent.run('go'));
    const [read, edit, command] = results(events);
    expect(read).toMatchObject({ ok: true, output: '1\told line' });
    expect(edit).toMatchObject({
      ok: true,
      details: {
        edit: { path: join(workspace.root, 'a.txt'), oldText: 'old line\n', newText: 'new line\n' },
      },
    });
    expect(command).toMatchObject({
      ok: true,
      output: 'Exit status 2.\nnew line\n',
      details: { exit: { code: 2, signal: null } },
    });
    expect(readFileSync(join(folder, 'a.txt'), 'utf8')).toBe('new line\n');
    const asked = provider.permissions.map((request) => request.kind);
    expect(asked).toContain('edit');
    expect(asked).toContain('execute');
    expect(
      provider.permissions.find((request) => request.kind === 'execute')?.command,
    ).toMatchObject({
      command: 'cat a.txt; exit 2',
      cwd: workspace.root,
    });
  });

  it('a rejected edit writes nothing, and a rejected command never runs', async () => {
    const { tools, folder } = await setUp({ 'a.txt': 'keep\n' });
    const { agent } = agentOn(
      tools,
      [
        { name: 'edit_file', arguments: { path: 'a.txt', old_text: 'keep', new_text: 'lost' } },
        { name: 'run_command', arguments: { command: 'touch ran' } },
      ],
      [{ choice: 'reject_once' }, { choice: 'reject_once' }],
    );
    const events = await collect(agent.run('go'));
    expect(results(events).map((result) => result.ok)).toEqual([false, false]);
    expect(readFileSync(join(folder, 'a.txt'), 'utf8')).toBe('keep\n');
    expect(existsSync(join(folder, 'ran'))).toBe(false);
  });

  it('cancelling the turn in the middle of a command ends its whole process group', async () => {
    const { tools, folder } = await setUp();
    const { agent } = agentOn(
      tools,
      [
        {
          name: 'run_command',
          arguments: { command: 'sleep 300 & echo $! > child.pid; sleep 300' },
        },
      ],
      [{ choice: 'allow_once' }],
    );
    const controller = new AbortController();
    const cancelled = pidIn(join(folder, 'child.pid')).then((pid) => {
      controller.abort();
      return pid;
    });
    const events = await collect(agent.run('go', { signal: controller.signal }));
    expect(events.at(-1)).toMatchObject({ type: 'turn-end', reason: 'cancelled' });
    await expectGone(await cancelled, { timeout: 10_000 });
  });
});

describe('run_command, directly', () => {
  const context = (description: unknown, signal = new AbortController().signal) =>
    ({ description, signal, toolCallId: 'c' }) as unknown as ToolContext;

  it('reports a signal that ended the command as information, not a failure', async () => {
    const { tool } = await setUp();
    const args = { command: 'echo before; kill -KILL $$' };
    const description = await tool('run_command').describe?.(args, {
      signal: new AbortController().signal,
      toolCallId: 'c',
    });
    const result = await tool('run_command').execute(args, context(description));
    expect(result).toMatchObject({
      ok: true,
      output: 'Ended by SIGKILL.\nbefore\n',
      details: { exit: { code: null, signal: 'SIGKILL' } },
    });
  });

  it('reads the output to its end, and does not wait for a process that left its group', async () => {
    const { tool, folder } = await setUp();
    const run = async (command: string) => {
      const args = { command };
      const description = await tool('run_command').describe?.(args, {
        signal: new AbortController().signal,
        toolCallId: 'c',
      });
      return tool('run_command').execute(args, context(description));
    };
    // Up to the pipe's 64 KiB may wait unread when the command exits: the last line is kept.
    for (let round = 0; round < 5; round++) {
      const result = await run("head -c 200000 /dev/zero | tr '\\0' a; echo; echo LAST LINE");
      expect(result.output).toMatch(/LAST LINE\n$/);
    }
    // A process in a session of its own outlives the group's kill and holds the pipes open
    // (the command ends once it has left the group: its marker is written after `setsid`). The
    // result comes while that process still runs: it was not waited for (a runner that waited
    // for the pipes to close would never answer, and the test would time out).
    const result = await run(
      "setsid sh -c 'echo $$ > holder; touch escaped; exec sleep 600' & until [ -e escaped ]; do sleep 0.01; done; echo started",
    );
    const holder = Number(readFileSync(join(folder, 'holder'), 'utf8'));
    try {
      expect(result.output).toContain('started');
      expect(() => process.kill(holder, 0)).not.toThrow();
    } finally {
      process.kill(holder, 'SIGKILL');
    }
  });

  it('runs the approved command, not a different one in the arguments', async () => {
    const { tool, folder } = await setUp();
    const signal = new AbortController().signal;
    const description = await tool('run_command').describe?.(
      { command: 'touch approved' },
      { signal, toolCallId: 'c' },
    );
    await tool('run_command').execute({ command: 'touch other' }, context(description));
    expect(existsSync(join(folder, 'approved'))).toBe(true);
    expect(existsSync(join(folder, 'other'))).toBe(false);
  });

  it('refuses a time limit over 600 seconds, and an empty command', async () => {
    const { tool } = await setUp();
    const info = { signal: new AbortController().signal, toolCallId: 'c' };
    await expect(
      Promise.resolve().then(() =>
        tool('run_command').describe?.({ command: 'true', timeout: 601 }, info),
      ),
    ).rejects.toMatchObject({ code: 'ARGUMENTS_INVALID' });
    await expect(
      Promise.resolve().then(() => tool('run_command').describe?.({ command: '  ' }, info)),
    ).rejects.toMatchObject({ code: 'ARGUMENTS_INVALID' });
  });

  it('ends the process groups still running when the program exits', async () => {
    const { folder } = await setUp();
    // The built package (`pnpm build` first), run by plain Node as a program would.
    const script = join(folder, 'exits.mjs');
    const index = pathToFileURL(join(import.meta.dirname, '../../dist/index.js')).href;
    writeFileSync(
      script,
      `import { createWorkspaceTools, openWorkspace } from ${JSON.stringify(index)};
const workspace = await openWorkspace(${JSON.stringify(folder)});
const tool = createWorkspaceTools({ workspace }).find((t) => t.name === 'run_command');
const args = { command: 'sleep 300 & echo $! > child.pid; sleep 300' };
const signal = new AbortController().signal;
const description = await tool.describe(args, { signal, toolCallId: 'c' });
void tool.execute(args, { description, signal, toolCallId: 'c' });
const wait = () => new Promise((resolve) => setImmediate(resolve));
const fs = await import('node:fs');
while (!(fs.existsSync('child.pid') && fs.readFileSync('child.pid', 'utf8').trim() !== '')) await wait();
process.exit(0);
`,
    );
    const child = spawn(process.execPath, [script], {
      cwd: folder,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(errors).toBe('');
    expect(code).toBe(0);
    await expectGone(Number(readFileSync(join(folder, 'child.pid'), 'utf8')), { timeout: 10_000 });
  });
});

describe('edit_file and write_file, hostile cases', () => {
  const info = { signal: new AbortController().signal, toolCallId: 'c' };

  it('describe a write through a symlink as the real outside path', async () => {
    const { tool, folder } = await setUp();
    const outside = join(base, `outside${count}`);
    mkdirSync(outside);
    writeFileSync(join(outside, 'target.txt'), 'outside\n');
    symlinkSync(join(outside, 'target.txt'), join(folder, 'inside.txt'));
    expect(
      await tool('write_file').describe?.({ path: 'inside.txt', content: 'x' }, info),
    ).toMatchObject({
      kind: 'edit',
      locations: [{ path: join(outside, 'target.txt') }],
      edit: { path: join(outside, 'target.txt'), oldText: 'outside\n', newText: 'x' },
    });
    expect(
      await tool('edit_file').describe?.(
        { path: 'inside.txt', old_text: 'outside', new_text: 'x' },
        info,
      ),
    ).toMatchObject({ locations: [{ path: join(outside, 'target.txt'), line: 1 }] });
  });

  it('a file created after a create was approved is left alone', async () => {
    const { tool, folder } = await setUp();
    const args = { path: 'new.txt', content: 'mine\n' };
    const description = await tool('write_file').describe?.(args, info);
    writeFileSync(join(folder, 'new.txt'), 'theirs\n');
    await expect(
      tool('write_file').execute(args, { ...info, description } as unknown as ToolContext),
    ).rejects.toMatchObject({ code: 'FILE_CHANGED' });
    expect(readFileSync(join(folder, 'new.txt'), 'utf8')).toBe('theirs\n');
  });

  it('overwriting shows the diff, and refuses a binary file there', async () => {
    const { tool, folder } = await setUp({ 'a.txt': 'one\n' });
    writeFileSync(join(folder, 'b.bin'), Buffer.from([0, 1, 2]));
    const args = { path: 'a.txt', content: 'two\n' };
    const description = await tool('write_file').describe?.(args, info);
    const result = await tool('write_file').execute(args, {
      ...info,
      description,
    } as unknown as ToolContext);
    expect(result.output).toContain('-one\n+two');
    await expect(
      Promise.resolve().then(() =>
        tool('write_file').describe?.({ path: 'b.bin', content: 'x' }, info),
      ),
    ).rejects.toMatchObject({ code: 'NOT_TEXT' });
  });
});

it('has bash and sleep on this machine', () => {
  expect(execFileSync('bash', ['-c', 'command -v sleep >/dev/null && echo ok']).toString()).toBe(
    'ok\n',
  );
});
