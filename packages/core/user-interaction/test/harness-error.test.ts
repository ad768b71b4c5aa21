import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  HarnessError,
  INTERNAL_ERROR_CODE,
  isHarnessError,
  isUserInteractionError,
  toToolError,
  UserInteractionError,
} from '../src/index.js';

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

/**
 * Builds the package into a second place on disk and loads it from there: a second copy, as a
 * bundler or a nested install makes (built here, so that the test needs no `dist/`).
 */
async function loadSecondCopy(): Promise<typeof import('../src/index.js')> {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-second-copy-'));
  copies.push(dir);
  const tsup = join(
    dirname(createRequire(import.meta.url).resolve('tsup/package.json')),
    'dist/cli-default.js',
  );
  execFileSync(
    process.execPath,
    [tsup, 'src/index.ts', '--no-config', '--format', 'esm', '--out-dir', dir, '--silent'],
    { cwd: fileURLToPath(new URL('..', import.meta.url)), stdio: 'pipe' },
  );
  return import(pathToFileURL(join(dir, 'index.js')).href);
}

describe('HarnessError', () => {
  it('carries a code, a name and a cause', () => {
    const cause = new Error('low level');
    const error = new HarnessError('It failed.', 'SOMETHING', { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('SOMETHING');
    expect(error.name).toBe('HarnessError');
    expect(error.message).toBe('It failed.');
    expect(error.cause).toBe(cause);
  });

  it('takes its name from the subclass', () => {
    const error = new UserInteractionError('Too slow.', 'ASK_TIMEOUT');
    expect(error.name).toBe('UserInteractionError');
    expect(error).toBeInstanceOf(HarnessError);
    expect(String(error)).toBe('UserInteractionError: Too slow.');
  });

  it('is recognised by isHarnessError, and lookalikes are not', () => {
    expect(isHarnessError(new HarnessError('x', 'X'))).toBe(true);
    expect(isHarnessError(new UserInteractionError('x', 'ASK_FAILED'))).toBe(true);
    expect(isHarnessError(new Error('x'))).toBe(false);
    expect(isHarnessError({ name: 'HarnessError', code: 'X', message: 'x' })).toBe(false);
    expect(isHarnessError(null)).toBe(false);
    expect(isHarnessError('HarnessError')).toBe(false);
  });

  it('is recognised across two copies of the package', async () => {
    const second = await loadSecondCopy();
    expect(second.HarnessError).not.toBe(HarnessError);
    const foreign = new second.UserInteractionError('No thanks.', 'ASK_DECLINED');
    expect(foreign).not.toBeInstanceOf(UserInteractionError);
    expect(isHarnessError(foreign)).toBe(true);
    expect(isUserInteractionError(foreign, 'ASK_DECLINED')).toBe(true);
    expect(second.isHarnessError(new HarnessError('x', 'X'))).toBe(true);
    expect(toToolError(foreign)).toEqual({
      name: 'UserInteractionError',
      code: 'ASK_DECLINED',
      message: 'No thanks.',
    });
  });
});

describe('UserInteractionError', () => {
  it('keeps the offending field of an invalid request', () => {
    const error = new UserInteractionError('Bad.', 'INVALID_REQUEST', {
      field: 'options[1].label',
    });
    expect(error.field).toBe('options[1].label');
    expect('field' in new UserInteractionError('x', 'ASK_FAILED')).toBe(false);
  });

  it('isUserInteractionError checks the code when given one', () => {
    const error = new UserInteractionError('x', 'ASK_CANCELLED');
    expect(isUserInteractionError(error)).toBe(true);
    expect(isUserInteractionError(error, 'ASK_CANCELLED')).toBe(true);
    expect(isUserInteractionError(error, 'ASK_DECLINED')).toBe(false);
    expect(isUserInteractionError(new HarnessError('x', 'ASK_CANCELLED'))).toBe(false);
  });
});

describe('one way to write an error class: a marker per class', () => {
  it('each class is recognised by its own marker, Symbol.for(`dsh.error.<name>`), not by its name', () => {
    const error = new UserInteractionError('x', 'ASK_DECLINED');
    const marked = error as unknown as Record<symbol, unknown>;
    expect(marked[Symbol.for('dsh.error.HarnessError')]).toBe(true);
    expect(marked[Symbol.for('dsh.error.UserInteractionError')]).toBe(true);
    expect(UserInteractionError.isInstance(error)).toBe(true);
    expect(HarnessError.isInstance(error)).toBe(true);
    // A HarnessError renamed is not the class it names: it lacks that class's marker.
    const renamed = new HarnessError('x', 'ASK_DECLINED');
    renamed.name = 'UserInteractionError';
    expect(UserInteractionError.isInstance(renamed)).toBe(false);
    expect(isUserInteractionError(renamed)).toBe(false);
  });

  it('the marker is on the prototype, not enumerable: a copy of the fields does not carry it', () => {
    const error = new UserInteractionError('x', 'ASK_DECLINED');
    expect(Object.getOwnPropertySymbols(error)).toEqual([]);
    expect(HarnessError.isInstance({ ...error, message: 'x' })).toBe(false);
  });

  it('a class of a harness, written the same way, gets its own marker', () => {
    class PluginError extends HarnessError<'PLUGIN_FAILED' | 'PLUGIN_GONE'> {
      static {
        HarnessError.mark(PluginError, 'PluginError', ['PLUGIN_FAILED', 'PLUGIN_GONE']);
      }
    }
    expect(new PluginError('x', 'PLUGIN_GONE').name).toBe('PluginError');
    // The class's codes only: a marked error with another code is not one of its errors.
    const forged = new PluginError('x', 'PLUGIN_GONE') as unknown as { code: string };
    forged.code = 'OTHER';
    expect(PluginError.isInstance(forged)).toBe(false);
    expect(PluginError.isInstance(new PluginError('x', 'PLUGIN_FAILED'))).toBe(true);
    expect(PluginError.isInstance(new HarnessError('x', 'PLUGIN_FAILED'))).toBe(false);
    expect(isHarnessError(new PluginError('x', 'PLUGIN_FAILED'))).toBe(true);
    expect(new PluginError('x', 'PLUGIN_FAILED')).toBeInstanceOf(HarnessError);
    // Called off its class, it says how to call it rather than answer for another class.
    const { isInstance } = PluginError;
    expect(() =>
      isInstance.call(undefined as never, new PluginError('x', 'PLUGIN_FAILED')),
    ).toThrow(TypeError);
  });

  it('HarnessError.guard makes the class guard: its isInstance, and the code when given', () => {
    class PluginError extends HarnessError<'PLUGIN_FAILED' | 'PLUGIN_GONE'> {
      static {
        HarnessError.mark(PluginError, 'PluginError', ['PLUGIN_FAILED', 'PLUGIN_GONE']);
      }
    }
    const isPluginError = HarnessError.guard(PluginError);
    expect(isPluginError.name).toBe('isPluginError');
    const error = new PluginError('x', 'PLUGIN_GONE');
    expect(isPluginError(error)).toBe(true);
    expect(isPluginError(error, 'PLUGIN_GONE')).toBe(true);
    expect(isPluginError(error, 'PLUGIN_FAILED')).toBe(false);
    // Another class's error with the same code, a look-alike object, nothing at all: no.
    expect(isPluginError(new HarnessError('x', 'PLUGIN_GONE'), 'PLUGIN_GONE')).toBe(false);
    expect(isPluginError({ name: 'PluginError', code: 'PLUGIN_GONE', message: 'x' })).toBe(false);
    expect(isPluginError(null)).toBe(false);
    // A forged code outside the class's list is refused even when asked for by that code.
    const forged = new PluginError('x', 'PLUGIN_GONE') as unknown as { code: string };
    forged.code = 'OTHER';
    expect(isPluginError(forged, 'OTHER' as never)).toBe(false);
    // The contract's own guard is made the same way and keeps its name.
    expect(isUserInteractionError.name).toBe('isUserInteractionError');
  });

  it('HarnessError.define marks a class once and returns its guard', () => {
    const CODES = ['PLUGIN_FAILED', 'PLUGIN_GONE'] as const;
    class PluginError extends HarnessError<(typeof CODES)[number]> {}
    const isPluginError = HarnessError.define(PluginError, 'PluginError', CODES);
    const error = new PluginError('x', 'PLUGIN_GONE');
    expect(error.name).toBe('PluginError');
    expect(isPluginError.name).toBe('isPluginError');
    expect(isPluginError(error, 'PLUGIN_GONE')).toBe(true);
    expect(isPluginError(error, 'PLUGIN_FAILED')).toBe(false);
    expect(isPluginError(new UserInteractionError('x', 'ASK_DECLINED'))).toBe(false);
    expect(isHarnessError(error)).toBe(true);
    // Its name and codes are set once: a second define (another name, wider codes) is refused,
    // and so is a second define of a class of the contract.
    expect(() => HarnessError.define(PluginError, 'UserInteractionError')).toThrow(TypeError);
    expect(error.name).toBe('PluginError');
    expect(() => HarnessError.define(UserInteractionError, 'UserInteractionError')).toThrow(
      TypeError,
    );
  });
});

describe('toToolError', () => {
  it('shows exactly name, code and message of a harness error', () => {
    const error = new UserInteractionError('No answer within 10 ms.', 'ASK_TIMEOUT', {
      cause: new Error('secret'),
    });
    const result = toToolError(error);
    expect(result).toEqual({
      name: 'UserInteractionError',
      code: 'ASK_TIMEOUT',
      message: 'No answer within 10 ms.',
    });
    expect(Object.keys(result).sort()).toEqual(['code', 'message', 'name']);
  });

  it('hides everything of any other error behind a generic code', () => {
    const secret = new Error('connect ECONNREFUSED https://user:sk-live-123@api.example.com');
    const result = toToolError(secret);
    expect(result.code).toBe(INTERNAL_ERROR_CODE);
    expect(JSON.stringify(result)).not.toContain('sk-live-123');
    expect(JSON.stringify(result)).not.toContain('ECONNREFUSED');
    expect(JSON.stringify(result)).not.toContain('    at ');
    for (const value of [undefined, null, 'text', 42, { code: 'FAKE', message: 'x' }]) {
      expect(toToolError(value).code).toBe(INTERNAL_ERROR_CODE);
    }
  });
});
