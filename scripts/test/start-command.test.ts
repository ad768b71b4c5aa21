import { describe, expect, it } from 'vitest';
import { packageManager, programArguments, startedAs } from '../start-command.mjs';

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
});
