import { Console } from 'node:console';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { routeConsoleToStderr } from '../../src/index.js';

function capture(stream: PassThrough): () => string {
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  return () => text;
}

describe('routeConsoleToStderr', () => {
  it('sends everything the console prints to stderr, and can put it back', () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const outText = capture(stdout);
    const errText = capture(stderr);
    const target = new Console({ stdout, stderr });

    const restore = routeConsoleToStderr(target, stderr);
    target.log('log');
    target.info('info');
    target.debug('debug');
    target.table([{ a: 1 }]);
    target.dir({ dir: true });
    target.error('error');
    expect(outText()).toBe('');
    for (const word of ['log', 'info', 'debug', 'dir: true', 'error']) {
      expect(errText()).toContain(word);
    }

    restore();
    target.log('back on stdout');
    expect(outText()).toBe('back on stdout\n');
  });
});
