import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { type AgentRunCommand, parseAgentCommandLine } from 'dsh-agent/command-line';
import { describe, expect, it } from 'vitest';
import {
  commandWorkspaceTools,
  permissionFlagsStatus,
  workspaceProblemStatus,
} from '../src/command-line.js';
import { WorkspaceToolError } from '../src/index.js';
import { testFileFolder } from './support/test-folders.js';

// What both programs do with the permission flags; each program's own test runs it end to end.

const base = testFileFolder('dsh-command-workspace-');
let count = 0;

function commandOf(...args: string[]): AgentRunCommand {
  const stateDir = join(base, `state${++count}`);
  const command = parseAgentCommandLine([...args, '--state-dir', stateDir]);
  if (command.kind !== 'run') throw new Error(`not a run: ${command.kind}`);
  return command;
}

async function statusOf(command: AgentRunCommand) {
  const said: string[] = [];
  let written = '';
  const stdout = new PassThrough();
  stdout.on('data', (chunk) => (written += chunk));
  const status = await permissionFlagsStatus(command, {
    say: (line) => said.push(line),
    usageHint: '(see my-agent --help)',
    stdout,
  });
  return { status, said, written };
}

describe('the permission flags of a program', () => {
  it('go on, saying nothing, when the rules are good and nothing is to be listed', async () => {
    expect(await statusOf(commandOf('--allow', 'read_file', '--deny', 'run_command:rm'))).toEqual({
      status: undefined,
      said: [],
      written: '',
    });
  });

  it('end with 2 for a bad rule, given with the usage hint, before any workspace is opened', async () => {
    const { status, said, written } = await statusOf(commandOf('--deny', 'rm -rf'));
    expect(status).toBe(2);
    expect(written).toBe('');
    expect(said).toEqual([expect.stringMatching(/^The rule "rm -rf" .* \(see my-agent --help\)$/)]);
  });

  it('list the rules in force with --permissions, then end with 0', async () => {
    const command = commandOf('--permissions', '--allow', 'run_command:npm test');
    const { status, said, written } = await statusOf(command);
    expect({ status, said }).toEqual({ status: 0, said: [] });
    expect(written).toContain('  allow  run_command:npm test  (--allow)\n');
    expect(written).toContain(
      `Your rules for every folder: ${command.stateDir}/permissions/user.json`,
    );
  });

  it('end with 1 for a rules file that cannot be read, said without the usage hint', async () => {
    const command = commandOf('--permissions');
    const { permissions } = await commandWorkspaceTools(command, process.cwd());
    mkdirSync(dirname(permissions.files.user), { recursive: true, mode: 0o700 });
    writeFileSync(permissions.files.user, 'not json', { flag: 'wx', mode: 0o600 });
    const { status, said } = await statusOf(command);
    expect(status).toBe(1);
    expect(said).toEqual([expect.stringContaining(permissions.files.user)]);
    expect(said[0]).not.toContain('--help');
  });
});

describe('workspaceProblemStatus', () => {
  it('rethrows an error that is no workspace tool error', () => {
    const error = new Error('boom');
    expect(() => workspaceProblemStatus(error, { say: () => {}, usageHint: '' })).toThrow(error);
  });

  it('gives 1 for a workspace that cannot be opened', async () => {
    const said: string[] = [];
    const error = await commandWorkspaceTools(commandOf(), join(base, 'missing')).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(WorkspaceToolError);
    expect(
      workspaceProblemStatus(error, { say: (line) => said.push(line), usageHint: '(h)' }),
    ).toBe(1);
    expect(said).toHaveLength(1);
  });
});
