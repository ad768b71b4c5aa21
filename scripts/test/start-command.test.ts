import { describe, expect, it } from 'vitest';
import { agentInProcess, packageManager, programArguments, startedAs } from '../start-command.mjs';

describe('pnpm start', () => {
  it('passes the flags after the `--` that pnpm keeps, and only that one', () => {
    expect(programArguments(['--', '--help'])).toEqual(['--help']);
    expect(programArguments(['--model', 'x'])).toEqual(['--model', 'x']);
    expect(programArguments(['--', '--', 'x'])).toEqual(['--', 'x']);
    expect(programArguments([])).toEqual([]);
  });

  it('says how it was started, for the hints of the program', () => {
    const start = { npm_lifecycle_event: 'start' };
    expect(startedAs({ ...start, npm_config_user_agent: 'pnpm/12.4.2 npm/? node/v20' })).toBe(
      'pnpm start --',
    );
    expect(startedAs({ ...start, npm_config_user_agent: 'npm/10.8.2 node/v20' })).toBe(
      'npm start --',
    );
    expect(startedAs(start)).toBe('pnpm start --');
    expect(startedAs({ npm_lifecycle_event: 'test' })).toBe('node scripts/start.mjs');
    expect(startedAs({})).toBe('node scripts/start.mjs');
  });

  it('builds with the pnpm that ran it: a program, or a script for node', () => {
    expect(packageManager({ npm_execpath: '/usr/lib/node_modules/pnpm/pnpm' }, 'node')).toEqual({
      command: '/usr/lib/node_modules/pnpm/pnpm',
      args: [],
    });
    expect(packageManager({ npm_execpath: '/opt/pnpm/bin/pnpm.cjs' }, 'node')).toEqual({
      command: 'node',
      args: ['/opt/pnpm/bin/pnpm.cjs'],
    });
    expect(packageManager({ npm_execpath: '/usr/lib/npm/bin/npm-cli.js' }, 'node')).toEqual({
      command: 'pnpm',
      args: [],
    });
    expect(packageManager({}, 'node')).toEqual({ command: 'pnpm', args: [] });
  });

  it('runs the agent in its own process only where a Ctrl+C is not passed on twice', () => {
    const start = { npm_lifecycle_event: 'start' };
    // Run with node directly, or by pnpm 12 (a program that leaves SIGINT to its script).
    expect(agentInProcess({})).toBe(true);
    expect(
      agentInProcess({
        ...start,
        npm_config_user_agent: 'pnpm/12.4.2 npm/? node/? linux x64',
        npm_execpath: '/usr/lib/node_modules/pnpm/pnpm',
      }),
    ).toBe(true);
    // A package manager written for Node forwards SIGINT: the agent gets a process of its own.
    expect(
      agentInProcess({
        ...start,
        npm_config_user_agent: 'pnpm/9.15.0 npm/? node/v20',
        npm_execpath: '/opt/pnpm/bin/pnpm.cjs',
      }),
    ).toBe(false);
    expect(
      agentInProcess({
        ...start,
        npm_config_user_agent: 'npm/10.8.2 node/v20',
        npm_execpath: '/usr/lib/npm/bin/npm-cli.js',
      }),
    ).toBe(false);
    expect(agentInProcess({ ...start, npm_config_user_agent: 'yarn/1.22.22 npm/? node/v20' })).toBe(
      false,
    );
    expect(agentInProcess(start)).toBe(false);
  });
});
