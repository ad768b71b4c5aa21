import { describe, expect, it } from 'vitest';
import { isUsageError, parseAgentCommandLine } from '../../src/command-line/agent-command-line.js';
import { usageError } from '../support/usage-errors.js';

/** What a run command holds with no flag given, and what `fields` change. */
function runCommand(fields: object = {}) {
  return {
    kind: 'run',
    ...fields,
    history: true,
    allow: [],
    deny: [],
    listPermissions: false,
    sandbox: 'auto',
    sandboxHide: [],
    passEnv: [],
    hideEnv: [],
    flags: new Set(),
    values: new Map(),
  };
}

describe('parseAgentCommandLine', () => {
  it('runs with the defaults when no flag is given', () => {
    expect(parseAgentCommandLine([])).toEqual(runCommand());
  });

  it("reads the shared flags and the program's own boolean flags", () => {
    const command = parseAgentCommandLine(
      [
        '--model',
        'qwen3',
        '--base-url=http://localhost:11434/v1',
        '--script',
        'demo.json',
        '--timeout',
        '90s',
        '--no-color',
      ],
      { booleanFlags: ['no-color', 'quiet'] },
    );
    expect(command).toEqual({
      ...runCommand({
        model: 'qwen3',
        baseUrl: 'http://localhost:11434/v1',
        script: 'demo.json',
        questionTimeoutMs: 90_000,
      }),
      flags: new Set(['no-color']),
    });
  });

  it('reads the rules and the permission mode: --allow and --deny repeat, a mode is checked', () => {
    expect(
      parseAgentCommandLine([
        '--allow',
        'run_command:npm test',
        '--allow=write_file:docs/**',
        '--deny',
        'run_command:rm',
        '--permission-mode',
        'read-only',
        '--permissions',
      ]),
    ).toMatchObject({
      allow: ['run_command:npm test', 'write_file:docs/**'],
      deny: ['run_command:rm'],
      permissionMode: 'read-only',
      listPermissions: true,
    });
    expect(usageError(() => parseAgentCommandLine(['--permission-mode', 'yolo'])).message).toBe(
      '--permission-mode takes ask, read-only or allow-sandboxed (got "yolo")',
    );
    expect(usageError(() => parseAgentCommandLine(['--allow', ' '])).message).toBe(
      '--allow needs a rule',
    );
    expect(usageError(() => parseAgentCommandLine(['--deny'])).message).toBe(
      '--deny needs a value',
    );
  });

  it('reads the sandbox and environment flags, and refuses a value they cannot take', () => {
    expect(
      parseAgentCommandLine([
        '--sandbox',
        'on',
        '--sandbox-hide',
        '~/secrets',
        '--pass-env',
        'GITHUB_TOKEN',
        '--hide-env=NPM_TOKEN',
        '--hide-env',
        'AWS_SECRET_ACCESS_KEY',
        '--permission-mode',
        'allow-sandboxed',
      ]),
    ).toMatchObject({
      sandbox: 'on',
      sandboxHide: ['~/secrets'],
      passEnv: ['GITHUB_TOKEN'],
      hideEnv: ['NPM_TOKEN', 'AWS_SECRET_ACCESS_KEY'],
      permissionMode: 'allow-sandboxed',
    });
    expect(usageError(() => parseAgentCommandLine(['--sandbox', 'maybe'])).message).toBe(
      '--sandbox takes auto, on, off (got "maybe")',
    );
    expect(usageError(() => parseAgentCommandLine(['--pass-env', 'A=1'])).message).toBe(
      '--pass-env takes a variable name, such as GITHUB_TOKEN (got "A=1")',
    );
    expect(usageError(() => parseAgentCommandLine(['--sandbox-hide', ' '])).message).toBe(
      '--sandbox-hide needs a path',
    );
  });

  it('reads where conversations are saved: --state-dir, or --no-history, not both', () => {
    expect(parseAgentCommandLine(['--state-dir', '/tmp/state'])).toMatchObject({
      kind: 'run',
      stateDir: '/tmp/state',
      history: true,
    });
    const memory = parseAgentCommandLine(['--no-history']);
    expect(memory).toMatchObject({ kind: 'run', history: false });
    expect(memory).not.toHaveProperty('stateDir');
    expect(
      usageError(() => parseAgentCommandLine(['--no-history', '--state-dir', '/tmp/state']))
        .message,
    ).toBe('--state-dir and --no-history cannot be used together');
    expect(usageError(() => parseAgentCommandLine(['--state-dir='])).message).toBe(
      '--state-dir needs a value',
    );
  });

  it("reads the program's own flags with a value, negative numbers included", () => {
    const command = parseAgentCommandLine(['--state-dir', '/tmp/x', '--offset', '-1'], {
      valueFlags: ['state-dir', 'offset'],
    });
    expect(command).toMatchObject({
      kind: 'run',
      values: new Map([
        ['state-dir', '/tmp/x'],
        ['offset', '-1'],
      ]),
    });
    expect(
      usageError(() => parseAgentCommandLine(['--state-dir'], { valueFlags: ['state-dir'] }))
        .message,
    ).toBe('--state-dir needs a value');
  });

  it('reads --thinking as one of its levels', () => {
    for (const level of ['off', 'low', 'high', 'max'] as const) {
      expect(parseAgentCommandLine(['--thinking', level])).toEqual(
        runCommand({
          thinking: level,
        }),
      );
    }
  });

  it('reads the model server time limit and retries', () => {
    expect(parseAgentCommandLine(['--request-timeout', '45s', '--retries', '0'])).toEqual(
      runCommand({
        requestTimeoutMs: 45_000,
        maxRetries: 0,
      }),
    );
    expect(parseAgentCommandLine(['--request-timeout=1500ms', '--retries=10'])).toMatchObject({
      requestTimeoutMs: 1_500,
      maxRetries: 10,
    });
  });

  it('--help and --version win over everything else', () => {
    expect(parseAgentCommandLine(['--model', 'x', '--help'])).toEqual({ kind: 'help' });
    expect(parseAgentCommandLine(['-h'])).toEqual({ kind: 'help' });
    expect(parseAgentCommandLine(['-V', '--timeout', '5m'])).toEqual({ kind: 'version' });
  });

  it.each([
    [['--verbose'], 'unknown option --verbose'],
    [['--no-color'], 'unknown option --no-color'],
    [['-x'], 'unknown option -x'],
    [['serve'], 'unexpected argument "serve"'],
    [['--model'], '--model needs a value'],
    [['--model='], '--model needs a value'],
    [['--base-url', ' '], '--base-url needs a value'],
    [['--help=yes'], '--help takes no value'],
    [['--version=1'], '--version takes no value'],
    [['--base-url'], '--base-url needs a value'],
    [['--script', ' '], '--script needs a value'],
    [['--thinking', 'medium'], '--thinking takes off, low, high, max (got "medium")'],
    [['--thinking'], '--thinking needs a value'],
    [['--retries', '11'], '--retries takes a whole number from 0 to 10 (got "11")'],
    [['--retries', '-1'], '--retries takes a whole number from 0 to 10 (got "-1")'],
    [['--retries', '1.5'], '--retries takes a whole number from 0 to 10 (got "1.5")'],
    [['--retries', 'many'], '--retries takes a whole number from 0 to 10 (got "many")'],
    [['--retries'], '--retries needs a value'],
    [
      ['--request-timeout', '30'],
      '--request-timeout 30 would be 30 milliseconds: write 30s for seconds, or 30ms if you mean it',
    ],
    [
      ['--request-timeout', '0s'],
      '--request-timeout 0s is zero: a duration must be above zero, such as 90s or 5m',
    ],
    [
      ['--request-timeout', 'soon'],
      '--request-timeout takes a duration from 1ms to 24 days, such as 90000, 90s or 5m (got "soon")',
    ],
    [['--request-timeout'], '--request-timeout needs a value'],
  ])('%j is a usage error: %s', (args, message) => {
    expect(usageError(() => parseAgentCommandLine(args)).message).toBe(message);
  });

  it("takes a program's own boolean flag for a missing value only where one is expected", () => {
    const flags = { booleanFlags: ['no-color'] };
    expect(usageError(() => parseAgentCommandLine(['--script', '--no-color'], flags)).message).toBe(
      '--script needs a value',
    );
    expect(usageError(() => parseAgentCommandLine(['--no-color=yes'], flags)).message).toBe(
      '--no-color takes no value',
    );
  });

  it('names the usage error for callers that branch on the code, in any copy of the package', () => {
    const error = usageError(() => parseAgentCommandLine(['--nope']));
    expect(error).toMatchObject({ name: 'UsageError', code: 'USAGE_INVALID' });
    expect(isUsageError(error)).toBe(true);
    expect(isUsageError({ ...error, name: 'UsageError', code: 'USAGE_INVALID' })).toBe(false);
    expect(isUsageError(new Error('unknown option --nope'))).toBe(false);
  });
});
