#!/usr/bin/env node
import {
  DEMO_WORKSPACE_FILES,
  sessionStoreFor,
  startAgentProgram,
  stateDirFor,
} from 'dsh-agent/command-line';
import {
  createScratchFolder,
  isWorkspaceToolError,
  parseRule,
  rulesText,
  workspaceAgentTools,
} from 'dsh-tools';
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
    const stateDir = stateDirFor(command);
    const demo = resolved.kind === 'demo';
    /** The workspace tools and policy of a session's folder; the demo's is a scratch folder. */
    const toolsFor = async (cwd: string) => {
      const folder = demo ? createScratchFolder(DEMO_WORKSPACE_FILES).folder : cwd;
      if (demo) log(`the demo works in a scratch folder, ${folder}, never in ${cwd}`);
      return workspaceAgentTools({
        folder,
        stateDir,
        allow: command.allow,
        deny: command.deny,
        ...(command.permissionMode !== undefined && { mode: command.permissionMode }),
      });
    };
    try {
      for (const rule of [...command.allow, ...command.deny]) parseRule(rule);
      if (command.listPermissions) {
        const { permissions } = await workspaceAgentTools({
          folder: process.cwd(),
          stateDir,
          allow: command.allow,
          deny: command.deny,
        });
        process.stdout.write(rulesText(permissions, command.permissionMode));
        return 0;
      }
    } catch (error) {
      if (!isWorkspaceToolError(error)) throw error;
      log(error.code === 'RULE_INVALID' ? `${error.message} (see dsh-acp --help)` : error.message);
      return error.code === 'RULE_INVALID' ? 2 : 1;
    }
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
      toolsFor,
      log,
    });
    await server.done;
    return 0;
  },
});
