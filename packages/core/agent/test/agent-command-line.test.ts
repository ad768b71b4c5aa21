import { describe, expect, it } from 'vitest';
import { parseAgentCommandLine, parseDuration, UsageError } from '../src/agent-command-line.js';

function usageError(run: () => unknown): UsageError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error('expected a UsageError');
}

describe('parseAgentCommandLine', () => {
  it('runs with the defaults when no flag is given', () => {
    expect(parseAgentCommandLine([])).toEqual({ kind: 'run', flags: new Set() });
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
      kind: 'run',
      model: 'qwen3',
      baseUrl: 'http://localhost:11434/v1',
      script: 'demo.json',
      questionTimeoutMs: 90_000,
      flags: new Set(['no-color']),
    });
  });

  it('reads --thinking as one of its levels', () => {
    for (const level of ['off', 'low', 'high', 'max'] as const) {
      expect(parseAgentCommandLine(['--thinking', level])).toEqual({
        kind: 'run',
        thinking: level,
        flags: new Set(),
      });
    }
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
    [['--thinking', 'medium'], '--thinking takes off, low, high, max (got "medium")'],
    [['--thinking'], '--thinking needs a value'],
  ])('%j is a usage error: %s', (args, message) => {
    expect(usageError(() => parseAgentCommandLine(args)).message).toBe(message);
  });

  it('names the usage error for callers that branch on the code', () => {
    const error = usageError(() => parseAgentCommandLine(['--nope']));
    expect(error).toMatchObject({ name: 'UsageError', code: 'USAGE_INVALID' });
  });
});

describe('parseDuration', () => {
  it.each([
    ['90000', 90_000],
    ['250ms', 250],
    ['90s', 90_000],
    ['1.5m', 90_000],
    ['2h', 7_200_000],
    [' 30s ', 30_000],
    ['1ms', 1],
    ['1000', 1_000],
  ])('%j is %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['90', '1', '999', '0.5'])(
    'a bare %j is refused: seconds were probably meant',
    (text) => {
      expect(usageError(() => parseDuration(text)).message).toBe(
        `--timeout ${text} would be ${text} milliseconds: write ${text}s for seconds, or ${text}ms if you mean it`,
      );
    },
  );

  it.each(['', '0s', '-5s', 'soon', '5 s', '5d', '1e3', '0.0001s', '25d'])(
    '%j is refused',
    (text) => {
      expect(usageError(() => parseDuration(text)).message).toMatch(/^--timeout takes a duration/);
    },
  );
});
