import {
  type ConversationEntry,
  checkAgentOptions,
  createScriptedModel,
  DEMO_SCRIPT,
} from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import { packageAgentInfo } from '../../src/agent-info.js';
import {
  type AcpAgentServerOptions,
  checkAcpAgentOptions,
} from '../../src/server/acp-agent-server.js';
import { serveAcpAgent } from '../../src/server.js';
import { tappedPipe } from '../../src/testing.js';
import { rejectionOf } from '../support/rejection-of.js';

const model = createScriptedModel(DEMO_SCRIPT, { name: 'demo' });

/** The error `run` throws; fails when it throws nothing. */
function thrown(run: () => unknown): Promise<unknown> {
  return rejectionOf(Promise.resolve().then(run));
}

describe('checkAcpAgentOptions', () => {
  it('gives the options with their defaults, the agent options apart', () => {
    const tools = [
      {
        name: 'echo',
        description: 'Echoes.',
        parameters: { type: 'object' },
        execute: async () => ({ ok: true as const, output: '' }),
      },
    ];
    const checked = checkAcpAgentOptions({ model, tools, maxSteps: 3 });
    expect(checked.agentInfo).toEqual(packageAgentInfo());
    expect(checked.questionsAsPermissions).toBe(false);
    expect(checked.mcpTrustReadOnly).toEqual([]);
    expect(checked.sessionStore).toBeUndefined();
    expect(checked.toolsFor).toBeUndefined();
    expect(checked.agent).toEqual({ model, tools, maxSteps: 3 });
  });

  it('makes a log that never throws, whatever the given one does', () => {
    const lines: string[] = [];
    const checked = checkAcpAgentOptions({
      model,
      log: (line) => {
        lines.push(line);
        throw new Error('the log is broken');
      },
    });
    expect(() => checked.log('one')).not.toThrow();
    expect(lines).toEqual(['one']);
    expect(() => checkAcpAgentOptions({ model }).log('nowhere')).not.toThrow();
  });

  it.each([
    ['options that are not an object', null, 'options'],
    ['agentInfo without a version', { model, agentInfo: { name: 'x' } }, 'agentInfo'],
    ['a log that is not a function', { model, log: 'stderr' }, 'log'],
    [
      'a session store without open',
      { model, sessionStore: { create() {}, list() {} } },
      'sessionStore',
    ],
    ['toolsFor that is not a function', { model, toolsFor: {} }, 'toolsFor'],
    [
      'questionsAsPermissions that is not a boolean',
      { model, questionsAsPermissions: 'yes' },
      'questionsAsPermissions',
    ],
    [
      'mcpTrustReadOnly that is not a list',
      { model, mcpTrustReadOnly: 'loop' },
      'mcpTrustReadOnly',
    ],
    [
      'mcpTrustReadOnly with a non-name',
      { model, mcpTrustReadOnly: ['loop', 7] },
      'mcpTrustReadOnly',
    ],
  ])('refuses %s with a TypeError naming it', async (_name, options, option) => {
    const error = await thrown(() => checkAcpAgentOptions(options as never));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain(option);
  });

  it.each([
    ['no model', {}],
    ['maxSteps 0', { model, maxSteps: 0 }],
    ['a tool without execute', { model, tools: [{ name: 'x' }] }],
  ])('refuses agent options as dsh-agent does: %s', async (_name, options) => {
    const error = await thrown(() => checkAcpAgentOptions(options as never));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(
      ((await thrown(() => checkAgentOptions(options as never))) as Error).message,
    );
  });

  it('reads each option once: a getter cannot pass the check and then give another value', () => {
    let reads = 0;
    const options = {
      model,
      get log() {
        reads++;
        return reads === 1 ? () => {} : 'not a function';
      },
    } as unknown as AcpAgentServerOptions;
    const checked = checkAcpAgentOptions(options);
    expect(() => checked.log('line')).not.toThrow();
    expect(reads).toBe(1);
  });

  it('calls nothing it is given: no toolsFor, no session store, no model', () => {
    const called: string[] = [];
    const spy = (name: string) => () => {
      called.push(name);
      throw new Error(`${name} must not be called`);
    };
    checkAcpAgentOptions({
      model: { name: 'spy', stream: spy('model.stream') } as never,
      toolsFor: spy('toolsFor'),
      sessionStore: { create: spy('create'), open: spy('open'), list: spy('list') } as never,
      log: spy('log'),
    });
    expect(called).toEqual([]);
  });

  it('is what serveAcpAgent checks: the same TypeError, at once, before anything is served', async () => {
    const pipe = tappedPipe();
    const options = { model, questionsAsPermissions: 1 } as never;
    const error = await thrown(() => serveAcpAgent(pipe.agentStream, options));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(
      ((await thrown(() => checkAcpAgentOptions(options))) as Error).message,
    );
    expect(pipe.wire.messages).toHaveLength(0);
    pipe.disconnect();
  });

  it('makes no agent at start: a turn left unfinished in a given conversation is not closed into the recorder', () => {
    // A made agent closes such a turn at once, writing two entries: the throw-away agent
    // serveAcpAgent used to make for its check wrote them into the caller's recorder.
    const conversation: ConversationEntry[] = [
      { type: 'prompt', text: 'Hello.' },
      {
        type: 'assistant',
        text: 'Asking.',
        toolCalls: [{ id: 'q', name: 'ask_user_question', arguments: '{"question":"Name?"}' }],
      },
    ];
    const recorded: ConversationEntry[] = [];
    const recorder = {
      add: (entry: ConversationEntry) => void recorded.push(entry),
      flush: async () => {},
    };
    const pipe = tappedPipe();
    const server = serveAcpAgent(pipe.agentStream, { model, conversation, recorder });
    expect(recorded).toEqual([]);
    server.close();
    pipe.disconnect();
  });
});
