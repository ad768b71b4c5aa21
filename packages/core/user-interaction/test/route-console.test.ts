import { Console } from 'node:console';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { inertText } from '../src/provider.js';
import { routeConsole } from '../src/text.js';

const HOSTILE = 'evil\u001b]52;c;b3duZWQ=\u0007\u202e';

function setUp() {
  const stdout = new PassThrough();
  const stream = new PassThrough();
  let out = '';
  let text = '';
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const target = new Console({ stdout, stderr: stdout });
  return { target, stream, out: () => out, text: () => text };
}

describe('routeConsole', () => {
  it('sends what the console prints to the stream, each call inert once formatted, and puts it back', () => {
    const { target, stream, out, text } = setUp();
    const restore = routeConsole(stream, (line) => inertText(line, 'terminal-paragraphs'), {
      target,
    });
    target.warn(`[mcp-sdk] excluding tool '${HOSTILE}'`);
    target.log('two\nlines', { key: HOSTILE });
    target.error(new Error(HOSTILE));
    // What `util.inspect` prints as it is: a symbol's description, an error's name in an array,
    // a table's header, and what an object's toString gives to `%s`.
    const named = new Error('x');
    named.name = HOSTILE;
    target.log(Symbol(HOSTILE), [named]);
    target.table([{ [HOSTILE]: 1 }]);
    target.log('%s', { toString: () => HOSTILE });
    restore();
    target.log('back');
    expect(out()).toBe('back\n');
    expect(text()).toContain("[mcp-sdk] excluding tool 'evil^[]52;c;b3duZWQ=^G<U+202E>'\n");
    expect(text()).toContain("two\nlines { key: 'evil\\x1B]52;c;b3duZWQ=\\x07<U+202E>' }");
    expect(text()).toContain('Error: evil^[]52;c;b3duZWQ=^G<U+202E>');
    expect(text()).toContain('Symbol(evil^[]52;c;b3duZWQ=^G<U+202E>)');
    for (const live of ['\u001b', '\u0007', '\u202e']) expect(text()).not.toContain(live);
  });

  it('at log-line, one line a call, cut after `longest`', () => {
    const { target, stream, text } = setUp();
    const restore = routeConsole(stream, (text) => inertText(text, 'log-line', { longest: 10 }), {
      target,
    });
    target.info(`a\nb${'x'.repeat(20)}`);
    restore();
    expect(text()).toBe('a\\nbxxxxxxx… (23 characters)\n');
  });
});
