import { describe, expect, it } from 'vitest';
import { fixture, hasStackTrace, jsonRpcLine } from '../support/bin-process.js';
import { type ProgramRun, startProgram } from '../support/program-client.js';

/** Writes one raw line and resolves with the next raw line the agent writes, parsed. */
async function exchange(program: ProgramRun, line: string) {
  program.write(line);
  return JSON.parse(await program.lines.next()) as Record<string, unknown>;
}

const INITIALIZE =
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}\n';

describe('bad input at the byte level, to the dsh-acp program', () => {
  it('answers malformed lines, batches, unknown methods and unknown sessions with JSON-RPC errors, and keeps serving', async () => {
    const program = startProgram(['--script', fixture('hello.json')]);

    expect(await exchange(program, 'this is not json\n')).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error' },
    });
    expect(await exchange(program, INITIALIZE)).toMatchObject({
      id: 1,
      result: { protocolVersion: 1, agentInfo: { name: 'dsh-acp' } },
    });
    expect(
      await exchange(program, '{"jsonrpc":"2.0","id":2,"method":"no/such_method","params":{}}\n'),
    ).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: {
        code: -32601,
        message: '"Method not found": no/such_method',
        data: { method: 'no/such_method' },
      },
    });
    expect(
      await exchange(
        program,
        '{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"nope","prompt":[{"type":"text","text":"hi"}]}}\n',
      ),
    ).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32002, message: 'Resource not found', data: { sessionId: 'nope' } },
    });
    expect(
      await exchange(program, '[{"jsonrpc":"2.0","id":4,"method":"initialize"}]\n'),
    ).toMatchObject({
      id: null,
      error: { code: -32600, message: 'Invalid request: JSON-RPC batches are not supported' },
    });
    expect(await exchange(program, '42\n')).toMatchObject({ id: null, error: { code: -32600 } });
    expect(
      await exchange(
        program,
        '{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":5}}\n',
      ),
    ).toMatchObject({ id: 5, error: { code: -32602 } });

    // An unknown notification gets no answer: the next line is the next request's answer.
    program.write('{"jsonrpc":"2.0","method":"no/such_notification","params":{}}\n');
    // A request split across writes, with a CRLF ending, as some clients send.
    program.write('{"jsonrpc":"2.0","id":6,"meth');
    const created = await exchange(
      program,
      'od":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}\r\n',
    );
    expect(created).toMatchObject({ id: 6, result: { sessionId: expect.any(String) } });
    const { sessionId } = created.result as { sessionId: string };

    // After all that, a whole turn: the text streamed as session/update, then end_turn.
    program.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'session/prompt', params: { sessionId, prompt: [{ type: 'text', text: 'Hi.' }] } })}\n`,
    );
    let text = '';
    for (;;) {
      const message = JSON.parse(await program.lines.next());
      if (message.id === 7) {
        expect(message).toEqual({ jsonrpc: '2.0', id: 7, result: { stopReason: 'end_turn' } });
        break;
      }
      expect(message).toMatchObject({
        method: 'session/update',
        params: { sessionId, update: { sessionUpdate: 'agent_message_chunk' } },
      });
      text += message.params.update.content.text;
    }
    expect(text).toBe('Hello from the script.');

    program.end();
    expect(await program.exited).toBe(0);
    for (const line of program.lines.all) jsonRpcLine(line);
    expect(hasStackTrace(program.stderr()), program.stderr()).toBe(false);
  });

  it('a request before initialize is refused (-32600), blank lines are skipped', async () => {
    const program = startProgram(['--script', fixture('hello.json')]);
    program.write('\n   \n');
    expect(
      await exchange(
        program,
        '{"jsonrpc":"2.0","id":"a","method":"session/new","params":{"cwd":"/","mcpServers":[]}}\n',
      ),
    ).toMatchObject({ id: 'a', error: { code: -32600 } });
    expect(await exchange(program, INITIALIZE)).toMatchObject({
      id: 1,
      result: { protocolVersion: 1 },
    });
    program.end();
    expect(await program.exited).toBe(0);
    expect(program.lines.all).toHaveLength(2);
  });
});
