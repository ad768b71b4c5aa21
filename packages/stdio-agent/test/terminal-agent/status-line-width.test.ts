import { type AgentTool, createScriptedModel, type PermissionPolicy } from 'dsh-agent';
import { WorkspaceToolError } from 'dsh-tools';
import { describe, expect, it } from 'vitest';
import { fromPrompt, startAgent, waitForPrompt } from '../support/agent-harness.js';

const RULES_FILE =
  '/home/someone/.local/state/dsh/permissions/workspaces/project-3f9a1c2b7d4e5f60/permissions.json';

/** An edit that fails with a long message, after a rule in a rules file allowed it. */
const EDIT: AgentTool = {
  name: 'edit_file',
  description: 'Edits a file.',
  parameters: { type: 'object' },
  describe: () => ({ kind: 'edit', title: 'Edit src/components/settings/notifications-panel.tsx' }),
  async execute() {
    throw new WorkspaceToolError(
      'The text to replace was not found in src/components/settings/notifications-panel.tsx: read the file again and copy the exact text.',
      'EDIT_NOT_FOUND',
    );
  },
};

const BY_RULE: PermissionPolicy = {
  decide: () => ({
    decision: 'allow',
    decidedBy: {
      kind: 'rule',
      rule: 'edit_file:src/**',
      source: `workspace rules, ${RULES_FILE}`,
    },
  }),
};

const SCRIPT = {
  steps: [
    { text: 'Editing.', toolCalls: [{ id: 'e1', name: 'edit_file', arguments: {} }] },
    { text: 'Done.' },
  ],
};

/** The transcript of one turn at `columns`, rows as the screen shows them. */
async function transcript(columns: number): Promise<string[]> {
  const { terminal, type } = startAgent({
    model: createScriptedModel(SCRIPT),
    tools: [EDIT],
    permissions: BY_RULE,
    columns,
  });
  await waitForPrompt(terminal);
  type('edit');
  await terminal.waitFor('Done.');
  return fromPrompt(await waitForPrompt(terminal), 'edit').split('\n');
}

describe('status lines on a narrow terminal', () => {
  it('never cut the error code nor the rule and its file, at 110 and at 40 columns', async () => {
    for (const columns of [110, 40]) {
      const rows = await transcript(columns);
      for (const row of rows) expect(row.length, row).toBeLessThan(columns);
      const text = rows.join('\n');
      // What may be cut is cut; the code, the rule and the rules file are there whole (read
      // across the rows they wrap to, which may break the path inside a word).
      const squeezed = (line: string) => line.replace(/\s+/g, '');
      expect(squeezed(text), text).toContain(
        squeezed(`allowed by rule \`edit_file:src/**\` (workspace rules, ${RULES_FILE})`),
      );
      expect(text).toContain('(EDIT_NOT_FOUND)');
    }
  });

  it('keeps a line that fits whole, on one row', async () => {
    const rows = await transcript(400);
    expect(rows).toContain(
      `✔ Edit src/components/settings/notifications-panel.tsx · allowed by rule \`edit_file:src/**\` (workspace rules, ${RULES_FILE})`,
    );
  });
});
