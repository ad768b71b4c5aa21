import { methods, type SessionUpdate } from '@agentclientprotocol/sdk';
import { createScriptedModel, type Script } from 'dsh-agent';
import { WITH_FORMS, type withServer } from '../../src/testing.js';
import { describedTools, rememberingPolicy } from './described-tools.js';

// The editor workspace, script and server of the tests of tool calls and approvals.

/** The cwd of the editor's session. */
export const CWD = '/work/project';

/** A model that edits `a.txt` once, then says it is done. */
export const EDIT: Script = {
  steps: [
    {
      text: 'Editing.',
      toolCalls: [{ id: 'e1', name: 'edit_file', arguments: { path: 'a.txt' } }],
    },
    { text: 'Done.' },
  ],
};

/** A server whose sessions get the described tools and a remembering policy for their cwd. */
export function approvalServer(script: Script) {
  const policy = rememberingPolicy();
  const cwds: string[] = [];
  let tools: ReturnType<typeof describedTools> | undefined;
  return {
    policy,
    cwds,
    runs: (name: string) => tools?.runs.get(name) ?? [],
    options: {
      model: createScriptedModel(script),
      toolsFor: async (cwd: string) => {
        cwds.push(cwd);
        tools = describedTools(cwd);
        return { tools: tools.tools, permissions: policy };
      },
    },
  };
}

/** Initializes the client with forms and opens a session in `CWD`. */
export async function openIn(agent: Parameters<Parameters<typeof withServer>[2]>[0]['agent']) {
  await agent.request(methods.agent.initialize, {
    protocolVersion: 1,
    clientCapabilities: WITH_FORMS,
  });
  const { sessionId } = await agent.request(methods.agent.session.new, {
    cwd: CWD,
    mcpServers: [],
  });
  return sessionId;
}

/** The updates of one tool call, in order. */
export function updatesOf(all: readonly SessionUpdate[], toolCallId: string): SessionUpdate[] {
  return all.filter(
    (update) =>
      (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') &&
      update.toolCallId === toolCallId,
  );
}

/** The diff of the edit of `EDIT`, as the editor is shown it. */
export const DIFF = { type: 'diff', path: `${CWD}/a.txt`, oldText: 'old\n', newText: 'new\n' };
/** A text content block of a tool call. */
export const text = (line: string) => ({ type: 'content', content: { type: 'text', text: line } });
