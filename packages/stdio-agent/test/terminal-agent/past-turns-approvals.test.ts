import type { ConversationEntry } from 'dsh-agent';
import { programCommand } from 'dsh-agent/command-line';
import { describe, expect, it } from 'vitest';
import { pastTurnsText } from '../../src/terminal-agent/past-turns.js';
import { terminalStyle } from '../../src/text/terminal-style.js';

const style = terminalStyle({ env: { NO_COLOR: '1' }, interactive: false });
const call = (id: string, name: string, args: object) => ({
  id,
  name,
  arguments: JSON.stringify(args),
});
type Approval = Extract<ConversationEntry, { type: 'approval' }>;
const approval = (
  toolCallId: string,
  description: Approval['description'],
  outcome: Approval['outcome'],
): Approval => ({ type: 'approval', toolCallId, description, outcome });

describe('a resumed conversation shows its approvals', () => {
  it('says who decided each call, and what ran', () => {
    const entries: ConversationEntry[] = [
      { type: 'prompt', text: 'fix it' },
      {
        type: 'assistant',
        text: 'Editing.',
        toolCalls: [
          call('e', 'edit_file', { path: 'a.ts' }),
          call('r', 'run_command', { command: 'npm test' }),
          call('x', 'run_command', { command: 'rm -rf /' }),
        ],
      },
      approval(
        'e',
        { kind: 'edit', title: 'Edit a.ts' },
        {
          allowed: true,
          decidedBy: { kind: 'person', choice: 'allow_always', rule: 'edit_file:*.ts' },
        },
      ),
      { type: 'tool-result', toolCallId: 'e', result: { ok: true, output: 'Changed a.ts.' } },
      approval(
        'r',
        { kind: 'execute', title: 'Run npm test' },
        {
          allowed: true,
          decidedBy: { kind: 'rule', rule: 'run_command:npm test', source: '--allow' },
        },
      ),
      {
        type: 'tool-result',
        toolCallId: 'r',
        result: {
          ok: true,
          output: 'Exit status 0.',
          details: { exit: { code: 0, signal: null } },
        },
      },
      approval(
        'x',
        { kind: 'execute', title: 'Run rm -rf /' },
        {
          allowed: false,
          decidedBy: { kind: 'person', choice: 'reject_once' },
        },
      ),
      {
        type: 'tool-result',
        toolCallId: 'x',
        result: {
          ok: false,
          output: '{}',
          error: {
            name: 'AgentError',
            code: 'PERMISSION_DENIED',
            message: 'The person rejected this call.',
          },
        },
      },
      { type: 'assistant', text: 'Done.' },
      { type: 'turn-end', reason: 'finished' },
    ];
    const text = pastTurnsText(entries, {
      style,
      width: undefined,
      command: programCommand('dsh-stdio-agent', {}),
    });
    expect(text).toBe(
      [
        'Resumed conversation (1 turn):',
        '> fix it',
        'Editing.',
        '✔ Edit a.ts · always allowed (rule `edit_file:*.ts`)',
        '✔ edit_file · Edit a.ts · ok',
        '✔ Run npm test · allowed by rule `run_command:npm test` (--allow)',
        '✔ run_command · Run npm test · exit 0',
        '✖ Run rm -rf / · rejected',
        'Done.',
        '',
        '',
      ].join('\n'),
    );
  });

  it('an approval on screen when the turn was cancelled reads as it did live: cancelled, not "not asked"', () => {
    const cancelledBy = (toolCallId: string, title: string): ConversationEntry[] => [
      approval(
        toolCallId,
        { kind: 'edit', title },
        {
          allowed: false,
          decidedBy: { kind: 'unanswered', code: 'ASK_ABORTED', message: 'Withdrawn.' },
        },
      ),
      {
        type: 'tool-result',
        toolCallId,
        result: {
          ok: false,
          output: '{}',
          error: { name: 'AgentError', code: 'TURN_CANCELLED', message: 'Cancelled.' },
        },
      },
    ];
    const entries: ConversationEntry[] = [
      { type: 'prompt', text: 'write it' },
      { type: 'assistant', text: 'Editing.', toolCalls: [call('p', 'edit_file', { path: 'a' })] },
      { type: 'posed', toolCallId: 'p', kind: 'approval' },
      ...cancelledBy('p', 'Edit PLAN.md'),
      { type: 'turn-end', reason: 'cancelled' },
      // Withdrawn before it was put to anyone: still "not asked".
      { type: 'prompt', text: 'again' },
      { type: 'assistant', text: 'Editing.', toolCalls: [call('q', 'edit_file', { path: 'b' })] },
      ...cancelledBy('q', 'Edit b'),
      { type: 'turn-end', reason: 'cancelled' },
    ];
    const text = pastTurnsText(entries, {
      style,
      width: undefined,
      command: programCommand('dsh-stdio-agent', {}),
    });
    expect(text).toContain('Editing.\n✖ Edit PLAN.md · cancelled\n⊘ Turn cancelled.');
    expect(text).not.toContain('Edit PLAN.md · denied');
    expect(text).toContain('✖ Edit b · denied, not asked: withdrawn (ASK_ABORTED)');
  });
});
