#!/usr/bin/env node
import { sessionStoreFor, startAgentProgram } from 'dsh-agent';
import { packageAgentInfo } from './agent-info.js';
import { serveAcpAgent } from './server/acp-agent-server.js';
import { HELP_TEXT } from './server/help-text.js';
import { acpStdioStream } from './stdio/acp-stdio-stream.js';
import { routeConsoleToStderr } from './stdio/route-console-to-stderr.js';
import { createStderrLog } from './stdio/stderr-log.js';

// While serving, stdout carries the protocol and nothing else, whatever any code logs.
routeConsoleToStderr();

// An editor may stop reading stderr; the sessions on stdin and stdout must go on regardless.
const log = createStderrLog('dsh-acp: ');

startAgentProgram({
  name: 'dsh-acp',
  helpText: HELP_TEXT,
  version: packageAgentInfo().version,
  usageHint: '(see dsh-acp --help)',
  booleanFlags: ['questions-as-permissions'],
  say: log,
  async run(command, resolved) {
    const sessionStore = sessionStoreFor(command);
    log(`serving ${resolved.description} over ACP on stdin/stdout`);
    log(
      sessionStore === undefined
        ? 'conversations are kept in memory only (--no-history)'
        : `conversations are saved in ${sessionStore.dir}`,
    );
    if (process.stdin.isTTY) {
      log('stdin is a terminal: this program is started by an editor (see dsh-acp --help)');
    }
    const { questionTimeoutMs, flags } = command;
    const server = serveAcpAgent(acpStdioStream({ log }), {
      model: resolved.model,
      questionsAsPermissions: flags.has('questions-as-permissions'),
      ...(questionTimeoutMs !== undefined && { questionTimeoutMs }),
      ...(sessionStore !== undefined && { sessionStore }),
      log,
    });
    await server.done;
    return 0;
  },
});
