import { UsageError } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../src/terminal-agent/format-duration.js';
import { parseCommandLine } from '../../src/terminal-agent/parse-command-line.js';

function usageMessage(args: string[]): string {
  try {
    parseCommandLine(args);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).code).toBe('USAGE_INVALID');
    return (error as UsageError).message;
  }
  throw new Error(`Expected ${JSON.stringify(args)} to be a usage error.`);
}

describe('parseCommandLine', () => {
  it('reads every flag', () => {
    expect(
      parseCommandLine([
        '--model',
        'llama3.1',
        '--base-url=http://localhost:11434/v1',
        '--script',
        'demo.json',
        '--timeout',
        '90s',
        '--no-color',
      ]),
    ).toEqual({
      kind: 'chat',
      model: 'llama3.1',
      baseUrl: 'http://localhost:11434/v1',
      script: 'demo.json',
      questionTimeoutMs: 90_000,
      color: false,
    });
    expect(parseCommandLine([])).toEqual({ kind: 'chat' });
  });

  it('puts --help and --version before anything else', () => {
    expect(parseCommandLine(['--model', 'x', '-h'])).toEqual({ kind: 'help' });
    expect(parseCommandLine(['-V', '--timeout', '5m'])).toEqual({ kind: 'version' });
  });

  it('explains what is wrong in a few words', () => {
    expect(usageMessage(['--verbose'])).toBe('unknown option --verbose');
    expect(usageMessage(['-x'])).toBe('unknown option -x');
    expect(usageMessage(['hello'])).toBe('unexpected argument "hello"');
    expect(usageMessage(['--base-url'])).toBe('--base-url needs a value');
    expect(usageMessage(['--script', '--no-color'])).toBe('--script needs a value');
    expect(usageMessage(['--script', ' '])).toBe('--script needs a value');
    expect(usageMessage(['--help=yes'])).toBe('--help takes no value');
    expect(usageMessage(['--timeout=-1s'])).toBe(
      '--timeout -1s is negative: a duration must be above zero, such as 90s or 5m',
    );
    expect(usageMessage(['--timeout', '-1s'])).toBe(
      '--timeout -1s is negative: a duration must be above zero, such as 90s or 5m',
    );
    expect(usageMessage(['--timeout', '0'])).toBe(
      '--timeout 0 is zero: a duration must be above zero, such as 90s or 5m',
    );
  });
});

describe('formatDuration', () => {
  it.each([
    [50, '50 ms'],
    [1_500, '2 s'],
    [90_000, '90 s'],
    [300_000, '5 min'],
    [330_000, '330 s'],
  ])('shows %d ms as %j', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
