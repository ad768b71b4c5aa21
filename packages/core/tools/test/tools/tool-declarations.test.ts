// Each workspace tool's parameters and error codes are declared once: the JSON schema the model
// is given, the argument check and the description's list of errors all come from it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentTool } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import { createWorkspaceTools, isWorkspaceToolError, openWorkspace } from '../../src/index.js';
import { EDIT_FILE } from '../../src/tools/edit-file-tool.js';
import { LIST_FILES } from '../../src/tools/list-files-tool.js';
import { READ_FILE } from '../../src/tools/read-file-tool.js';
import { RUN_COMMAND } from '../../src/tools/run-command-tool.js';
import { SEARCH } from '../../src/tools/search-tool.js';
import {
  errorsSentence,
  type ParameterDefinition,
  type ParameterTable,
  parametersSchema,
  type ToolDeclaration,
} from '../../src/tools/tool-parameters.js';
import { WRITE_FILE } from '../../src/tools/write-file-tool.js';
import { testFileFolder } from '../support/test-folders.js';

const DECLARATIONS: readonly ToolDeclaration<ParameterTable>[] = [
  READ_FILE,
  LIST_FILES,
  SEARCH,
  EDIT_FILE,
  WRITE_FILE,
  RUN_COMMAND,
];

const base = testFileFolder('dsh-tools-declared-');

async function tools(): Promise<Map<string, AgentTool>> {
  const folder = join(base, 'w');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'a.txt'), 'one\n');
  const workspace = await openWorkspace(folder);
  return new Map(createWorkspaceTools({ workspace }).map((tool) => [tool.name, tool]));
}

/** A value of the wrong kind for each kind of parameter. */
function wrongValues(parameter: ParameterDefinition): unknown[] {
  switch (parameter.kind) {
    case 'text':
      return [7, true, ['x'], {}];
    case 'count':
      return [0, 1.5, '3', -1, ...(parameter.maximum === undefined ? [] : [parameter.maximum + 1])];
    case 'flag':
      return ['true', 1];
    case 'choice':
      return ['all', 3];
    case 'globs':
      return [1, ['*.ts', 2]];
  }
}

/** Arguments every tool takes: each required parameter given a value of its kind. */
function validArguments(declaration: ToolDeclaration<ParameterTable>): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [name, parameter] of Object.entries(declaration.parameters)) {
    if (parameter.kind === 'text' && parameter.required === true) args[name] = 'a.txt';
  }
  if (declaration.name === 'edit_file') args.old_text = 'one';
  if (declaration.name === 'run_command') args.command = 'true';
  return args;
}

describe('the workspace tools’ declarations', () => {
  it('give each tool its schema and the list of its errors', async () => {
    const byName = await tools();
    expect([...byName.keys()]).toEqual(DECLARATIONS.map((declaration) => declaration.name));
    for (const declaration of DECLARATIONS) {
      const tool = byName.get(declaration.name) as AgentTool;
      expect(tool.parameters).toEqual(parametersSchema(declaration.parameters));
      expect(tool.parameters).toMatchObject({ additionalProperties: false });
      expect(String(tool.description)).toContain(errorsSentence(declaration.errors));
      expect(declaration.errors).toHaveProperty('ARGUMENTS_INVALID');
    }
  });

  it('keep the schema the model was given before', () => {
    expect(parametersSchema(RUN_COMMAND.parameters)).toEqual({
      type: 'object',
      properties: {
        command: { type: 'string', description: 'The command line, as bash -c runs it.' },
        timeout: {
          type: 'integer',
          minimum: 1,
          maximum: 600,
          description: 'Seconds before it is ended (default 120).',
        },
        sandbox: {
          type: 'string',
          enum: ['network', 'none'],
          description: expect.stringContaining('Leave out: the command runs in the sandbox.'),
        },
      },
      required: ['command'],
      additionalProperties: false,
    });
    expect(parametersSchema(LIST_FILES.parameters)).not.toHaveProperty('required');
    expect(errorsSentence(READ_FILE.errors)).toBe(
      'Errors: PATH_NOT_FOUND (no such file), NOT_TEXT (a folder or a binary file), TOO_LARGE (over 8 MiB), PATH_INVALID, FILE_CHANGED (the file was replaced by a link while it was read: nothing was read), ARGUMENTS_INVALID, PERMISSION_DENIED (the person did not allow a read outside the workspace).',
    );
  });

  it('refuse, before anything runs, every argument of the wrong kind, naming it', async () => {
    const byName = await tools();
    const signal = new AbortController().signal;
    for (const declaration of DECLARATIONS) {
      const tool = byName.get(declaration.name) as AgentTool;
      const valid = validArguments(declaration);
      // The valid arguments pass the check (they may fail later, for other reasons).
      await Promise.resolve(tool.describe?.(valid, { signal, toolCallId: 'c' })).catch(
        (error: unknown) => expect(isWorkspaceToolError(error, 'ARGUMENTS_INVALID')).toBe(false),
      );
      for (const [name, parameter] of Object.entries(declaration.parameters)) {
        for (const wrong of wrongValues(parameter)) {
          const args = { ...valid, [name]: wrong };
          const refused = await Promise.resolve()
            .then(() => tool.describe?.(args, { signal, toolCallId: 'c' }))
            .then(
              () => undefined,
              (error: unknown) => error,
            );
          expect(
            isWorkspaceToolError(refused, 'ARGUMENTS_INVALID'),
            `${declaration.name} ${name}: ${JSON.stringify(wrong)}`,
          ).toBe(true);
          expect((refused as Error).message).toContain(`\`${name}\``);
        }
        if (parameter.kind === 'text' && parameter.required === true) {
          const { [name]: _left, ...without } = valid;
          await expect(
            Promise.resolve().then(() => tool.describe?.(without, { signal, toolCallId: 'c' })),
          ).rejects.toThrow(`${declaration.name} needs \`${name}\`.`);
        }
      }
      await expect(
        Promise.resolve().then(() => tool.describe?.([], { signal, toolCallId: 'c' })),
      ).rejects.toThrow(`${declaration.name} takes a JSON object of arguments.`);
    }
  });
});
