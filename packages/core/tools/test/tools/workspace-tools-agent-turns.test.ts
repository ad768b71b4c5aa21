import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentEvent, type AgentTool, createAgent, createScriptedModel } from 'dsh-agent';
import { createUserInteraction } from 'dsh-user-interaction';
import { createScriptedProvider, type ScriptedAnswer } from 'dsh-user-interaction/testing';
import { describe, expect, it } from 'vitest';
import { expectGone, testFileFolder } from '../support/test-folders.js';
import { workspaceSetUp } from '../support/workspace-setup.js';

const setUp = workspaceSetUp(testFileFolder('dsh-tools-agent-'));

/** Waits until the file holds a pid, without sleeping: one turn of the event loop at a time. */
async function pidIn(path: string): Promise<number> {
  for (;;) {
    const text = existsSync(path) ? readFileSync(path, 'utf8').trim() : '';
    if (text !== '') return Number(text);
    await new Promise((resolve) => setImmediate(resolve));
  }
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
