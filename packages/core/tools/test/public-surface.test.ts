import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as commandLine from '../src/command-line.js';
import * as root from '../src/index.js';

// What a harness author can import is a promise we keep: a name added to a list below is a
// decision (its README documents it), not a side effect of exporting a helper for another file.
describe('the public surface', () => {
  it('the root exports what the README documents, and nothing else', () => {
    expect(Object.keys(root).sort()).toEqual([
      'HIDDEN_HOME_PATHS',
      'READ_ONLY_IN_WORKSPACE',
      'TOOL_ERROR_CODES',
      'WorkspaceToolError',
      'analyseCommand',
      'commandEnvironment',
      'createCommandSandbox',
      'createPermissionPolicy',
      'createScratchFolder',
      'createWorkspaceTools',
      'fileRuleSource',
      'isInside',
      'isWorkspaceToolError',
      'openWorkspace',
      'parseRule',
      'probeSandbox',
      'resolvePath',
      'rulesText',
      'sandboxPermissionPolicy',
      'sandboxStatusLine',
      'userRulesPath',
      'withheldVariables',
      'workspaceAgentTools',
      'workspaceRelative',
      'workspaceRulesPath',
    ]);
  });

  it('`dsh-tools/command-line` exports its own part and nothing else', () => {
    expect(Object.keys(commandLine).sort()).toEqual([
      'commandWorkspaceTools',
      'demoWorkspaceTools',
      'permissionFlagsStatus',
      'workspaceProblemStatus',
    ]);
  });

  it('the README documents every name of the root and of `dsh-tools/command-line`', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const undocumented = [...Object.keys(root), ...Object.keys(commandLine)].filter(
      (name) => !new RegExp(`\\b${name}\\b`).test(readme),
    );
    expect(undocumented).toEqual([]);
  });

  it('the root stays small enough to read in a few minutes', () => {
    expect(Object.keys(root).length).toBeLessThanOrEqual(26);
  });
});
