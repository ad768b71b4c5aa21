import { describe, expect, it } from 'vitest';
import { parseCommandLine, parseDuration, UsageError } from '../src/command-line.js';

function usageError(run: () => unknown): UsageError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error('expected a UsageError');
}

describe('parseCommandLine', () => {
  it('serves the default (the demo, or a key from the environment) with no flags', () => {
    expect(parseCommandLine([])).toEqual({ kind: 'serve' });
  });

  it('reads the model flags and the question time limit', () => {
    expect(
      parseCommandLine([
        '--model',
        'qwen3',
        '--base-url=http://localhost:11434/v1',
        '--script',
        'demo.json',
        '--timeout',
        '90s',
      ]),
    ).toEqual({
      kind: 'serve',
      model: 'qwen3',
      baseUrl: 'http://localhost:11434/v1',
      script: 'demo.json',
      questionTimeoutMs: 90_000,
    });
  });

  it('--help and --version win over everything else', () => {
    expect(parseCommandLine(['--model', 'x', '--help'])).toEqual({ kind: 'help' });
    expect(parseCommandLine(['-h'])).toEqual({ kind: 'help' });
    expect(parseCommandLine(['--version'])).toEqual({ kind: 'version' });
    expect(parseCommandLine(['-V'])).toEqual({ kind: 'version' });
  });

  it.each([
    [['--verbose'], 'unknown option --verbose'],
    [['-x'], 'unknown option -x'],
    [['serve'], 'unexpected argument "serve"'],
    [['--model'], '--model needs a value'],
    [['--help=yes'], '--help takes no value'],
    [['--version=1'], '--version takes no value'],
  ])('%j is a usage error: %s', (args, message) => {
    expect(usageError(() => parseCommandLine(args)).message).toEqual(message);
  });

  it('names the usage error for callers that branch on the code', () => {
    const error = usageError(() => parseCommandLine(['--nope']));
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
    ['1', 1],
  ])('%j is %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '0', '0s', '-5s', 'soon', '5 s', '5d', '1e3', '0.0001s', '25d'])(
    '%j is refused',
    (text) => {
      expect(usageError(() => parseDuration(text)).message).toMatch(/^--timeout takes a duration/);
    },
  );
});
