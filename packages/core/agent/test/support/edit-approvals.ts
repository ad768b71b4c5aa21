import type { AgentTool, ToolCallDescription } from '../../src/loop/agent-tool.js';
import type { Script } from '../../src/script/script.js';

// The edit and the script that asks for it, that agent-approvals-*.test.ts approve or refuse.

export const EDIT: ToolCallDescription = {
  kind: 'edit',
  title: 'Edit /w/a.txt',
  locations: [{ path: '/w/a.txt', line: 1 }],
  edit: { path: '/w/a.txt', oldText: 'old\n', newText: 'new\n' },
};

/** A tool that says what it will do, and counts its runs. */
export function editTool(description: ToolCallDescription = EDIT) {
  const runs: unknown[] = [];
  const tool: AgentTool & { runs: unknown[] } = {
    name: 'edit_file',
    description: 'Edits a file.',
    parameters: { type: 'object' },
    describe: () => description,
    async execute(_args, context) {
      runs.push(context.description);
      return { ok: true, output: 'edited', details: { edit: description.edit as never } };
    },
    runs,
  };
  return tool;
}

export const SCRIPT: Script = {
  steps: [
    {
      text: 'Editing.',
      toolCalls: [{ id: 'e1', name: 'edit_file', arguments: { path: 'a.txt' } }],
    },
    { text: 'Done.' },
  ],
};
