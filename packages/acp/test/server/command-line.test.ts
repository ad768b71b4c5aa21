import { UsageError } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/server/command-line.js';

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
