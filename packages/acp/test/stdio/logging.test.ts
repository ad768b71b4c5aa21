import { Console } from 'node:console';
import { PassThrough, Writable } from 'node:stream';
import { methods, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { createScriptedModel } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import { createStderrLog, routeConsoleToStderr } from '../../src/index.js';
import { logText } from '../../src/stdio/log-text.js';
import { createTestClient, newSession, prompt, withServer } from '../../src/testing.js';

const options = () => ({ model: createScriptedModel({ steps: [{ text: 'Hello.' }] }) });

const HOSTILE = 'evil\u001b]0;PWNED\u0007\u001b[2J\nfake: log line\u202e\u200b\r\\n';

/** True when `text` holds anything a terminal or a log reader would act on. */
function hasLiveCharacters(text: string): boolean {
  return /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(text);
}

describe('logText', () => {
  it('shows every control, escape, line break and format character inert, and escapes the backslash', () => {
    const shown = logText(HOSTILE);
    expect(shown).toBe(
      'evil\\u001b]0;PWNED\\u0007\\u001b[2J\\nfake: log line\\u202e\\u200b\\r\\\\n',
    );
    expect(hasLiveCharacters(shown)).toBe(false);
  });

  it('keeps ordinary text as it is, and cuts long text saying how long it was', () => {
    expect(logText('Zed Editor 0.200.0 – é 日本 🙂')).toBe('Zed Editor 0.200.0 – é 日本 🙂');
    const long = logText('x'.repeat(10_000));
    expect(long).toBe(`${'x'.repeat(200)}… (10000 characters)`);
  });
});

describe('client text in the log', () => {
  it('a clientInfo crafted to forge a log line and drive the terminal is logged inert, on one line', async () => {
    const testClient = createTestClient();
    await withServer(options(), testClient, async ({ agent, log }) => {
      await agent.request(methods.agent.initialize, {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: {},
        clientInfo: { name: HOSTILE, version: `1.0\n${'9'.repeat(5_000)}` },
      });
      expect(log).toHaveLength(1);
      const [line = ''] = log;
      expect(hasLiveCharacters(line)).toBe(false);
      expect(line).toContain('evil\\u001b]0;PWNED\\u0007\\u001b[2J\\nfake: log line');
      expect(line.length).toBeLessThan(600);
      expect(line).toMatch(/ connected \(protocol 1; /);
    });
  });

  it('what a library logs through the console is inert too (the SDK logs an unknown response id)', () => {
    const stderr = new PassThrough();
    let text = '';
    stderr.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    const target = new Console({ stdout: new PassThrough(), stderr });
    const restore = routeConsoleToStderr(target, stderr);
    target.error('Got response to unknown request', HOSTILE);
    restore();
    expect(text.split('\n')).toEqual([
      expect.stringContaining('Got response to unknown request evil\\u001b'),
      '',
    ]);
    expect(hasLiveCharacters(text.slice(0, -1))).toBe(false);
  });
});

describe('logging never takes the server down', () => {
  it('a log that throws: the server goes on answering', async () => {
    const testClient = createTestClient();
    const failing = {
      ...options(),
      log: () => {
        throw new Error('the log is gone');
      },
    };
    await withServer(failing, testClient, async ({ agent }) => {
      await agent.request(methods.agent.initialize, {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: {},
        clientInfo: { name: 'zed', version: '1' },
      });
      const sessionId = await newSession(agent);
      expect(await prompt(agent, sessionId, 'Hi.')).toEqual({ stopReason: 'end_turn' });
    });
  });

  it('createStderrLog drops lines once its stream has failed, without throwing or crashing', async () => {
    let written = '';
    let fail = false;
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        if (fail) callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
        else {
          written += chunk.toString('utf8');
          callback();
        }
      },
    });
    const log = createStderrLog('agent: ', stream);
    log('one');
    fail = true;
    const failed = new Promise((resolve) => stream.once('error', resolve));
    log('two');
    await failed;
    expect(() => log('three')).not.toThrow();
    expect(written).toBe('agent: one\n');
  });
});
