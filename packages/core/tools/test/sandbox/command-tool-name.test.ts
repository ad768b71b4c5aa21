import { describe, expect, it } from 'vitest';
import { parseRule, probeSandbox, type SandboxStatus } from '../../src/index.js';
import { blockedNote } from '../../src/sandbox/blocked-note.js';
import { makeUp, runner, sandboxTestFolder } from './sandbox-support.js';

// The command tool's name is an option (`name`, and the policy's `commandTool`): what the model
// reads must name the tool it can call, never the default `run_command` it does not have.
const base = sandboxTestFolder('dsh-tool-name-');
const status: SandboxStatus = await probeSandbox();

describe('a command tool renamed `sh`', () => {
  it('is named in the sandbox note, for a write and for the network', () => {
    const write = blockedNote('bash: /etc/x: Read-only file system', 'sandboxed', 'sh');
    expect(write?.note).toContain('call sh again with sandbox: "none"');
    const network = blockedNote('curl: (6) Could not resolve host: example.com', 'sandboxed', 'sh');
    expect(network?.note).toContain('call sh again with the same command and sandbox: "network"');
    expect(`${write?.note}${network?.note}`).not.toContain('run_command');
  });

  it('is named in the rule error of its policy', () => {
    expect(() => parseRule(':x', 'sh')).toThrow(/such as sh:npm test/);
    expect(() => parseRule(':x', 'sh')).not.toThrow(/run_command/);
  });

  it.skipIf(!status.available)(
    'is what its description, parameters, errors and blocked results call it',
    async () => {
      const made = await makeUp(base, 'renamed');
      const { tool, run } = runner(made, status, { name: 'sh' });
      expect(tool.name).toBe('sh');
      expect(JSON.stringify([tool.description, tool.parameters])).not.toContain('run_command');
      await expect(run('true', { timeout: 0 })).rejects.toThrow(/of sh\b|\bsh needs/);
      const result = await run(`echo out > ${made.root}/outside.txt`);
      expect(result.output).toContain('[sandbox] This command ran in the sandbox');
      expect(result.output).toContain('call sh again with sandbox: "none"');
      expect(result.output).not.toContain('run_command');
    },
  );
});
