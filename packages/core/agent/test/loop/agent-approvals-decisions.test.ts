import { describe, expect, it } from 'vitest';
import type { PermissionPolicy } from '../../src/loop/permission-policy.js';
import { editTool, SCRIPT } from '../support/edit-approvals.js';
import { collect, endOf, expectValidConversation, scriptedAgent } from '../support/harness.js';

describe('approvals', () => {
  it('tells the model a rejected call did not run, and never runs it', async () => {
    const tool = editTool();
    const { agent, model } = scriptedAgent(SCRIPT, {
      answers: [{ choice: 'reject_once' }],
      agent: { tools: [tool] },
    });
    const events = await collect(agent.run('go'));
    expect(tool.runs).toHaveLength(0);
    const result = events.find((event) => event.type === 'tool-result');
    expect(result).toMatchObject({ result: { ok: false, error: { code: 'PERMISSION_DENIED' } } });
    const message = (result as { result: { error: { message: string } } }).result.error.message;
    expect(message).toMatch(/^The person rejected this call, so it did not run/);
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'e1' });
  });

  it('lets the policy decide without asking, naming the rule; a failing policy denies', async () => {
    const allowing: PermissionPolicy = {
      decide: () => ({
        decision: 'allow',
        decidedBy: { kind: 'rule', rule: 'edit_file:*.txt', source: '--allow' },
      }),
    };
    const tool = editTool();
    const { agent, provider } = scriptedAgent(SCRIPT, {
      agent: { tools: [tool], permissions: allowing },
    });
    const events = await collect(agent.run('go'));
    expect(provider.permissions).toHaveLength(0);
    expect(tool.runs).toHaveLength(1);
    expect(events.find((event) => event.type === 'tool-approval')).toMatchObject({
      outcome: { allowed: true, decidedBy: { kind: 'rule', rule: 'edit_file:*.txt' } },
    });

    const broken: PermissionPolicy = {
      decide() {
        throw new Error('rules file damaged');
      },
    };
    const second = editTool();
    const failing = scriptedAgent(SCRIPT, { agent: { tools: [second], permissions: broken } });
    const failed = await collect(failing.agent.run('go'));
    expect(second.runs).toHaveLength(0);
    expect(failed.find((event) => event.type === 'tool-approval')).toMatchObject({
      outcome: { allowed: false, decidedBy: { kind: 'policy' } },
    });
  });

  it('keeps the rule an "always" answer names, and warns when it cannot', async () => {
    const remembered: [string, string][] = [];
    const policy: PermissionPolicy = {
      decide: () => ({
        decision: 'ask',
        allowAlways: { rule: 'edit_file:*.txt', description: 'Always allow edits to *.txt' },
      }),
      remember: (rule, effect) => {
        remembered.push([rule, effect]);
      },
    };
    const { agent } = scriptedAgent(SCRIPT, {
      answers: [{ choice: 'allow_always' }],
      agent: { tools: [editTool()], permissions: policy },
    });
    await collect(agent.run('go'));
    expect(remembered).toEqual([['edit_file:*.txt', 'allow']]);

    const failing: PermissionPolicy = {
      ...policy,
      remember() {
        throw new Error('disk full');
      },
    };
    const tool = editTool();
    const second = scriptedAgent(SCRIPT, {
      answers: [{ choice: 'allow_always' }],
      agent: { tools: [tool], permissions: failing },
    });
    const events = await collect(second.agent.run('go'));
    expect(tool.runs).toHaveLength(1);
    expect(events.find((event) => event.type === 'tool-approval')).toMatchObject({
      warning: expect.stringContaining('could not be saved'),
    });
  });

  it('denies when no UI can approve, and when the person is gone', async () => {
    const tool = editTool();
    const { agent } = scriptedAgent(SCRIPT, {
      answers: [{ error: 'INPUT_CLOSED' }],
      agent: { tools: [tool] },
    });
    const events = await collect(agent.run('go'));
    expect(tool.runs).toHaveLength(0);
    expect(events.find((event) => event.type === 'tool-approval')).toMatchObject({
      outcome: { allowed: false, decidedBy: { kind: 'unanswered', code: 'INPUT_CLOSED' } },
    });
  });

  it('cancels the turn when it is cancelled at the approval; nothing runs', async () => {
    const tool = editTool();
    const { agent, provider } = scriptedAgent(SCRIPT, { agent: { tools: [tool] } });
    const held = provider.hold();
    const controller = new AbortController();
    const turn = collect(agent.run('go', { signal: controller.signal }));
    await held;
    controller.abort();
    const events = await turn;
    expect(endOf(events).reason).toBe('cancelled');
    expect(tool.runs).toHaveLength(0);
    // It never started: the model is told it did not run.
    expect(events.find((event) => event.type === 'tool-result')).toMatchObject({
      result: {
        error: { code: 'TURN_CANCELLED', message: expect.stringContaining('Do not assume it ran') },
      },
    });
    expectValidConversation(agent.messages);
  });
});
