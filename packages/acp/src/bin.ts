#!/usr/bin/env node
import { isModelError, resolveModel, UsageError } from 'dsh-agent';
import { isHarnessError } from 'dsh-user-interaction';
import { packageAgentInfo } from './agent-info.js';
import { serveAcpAgent } from './server/acp-agent-server.js';
import { type Command, HELP_TEXT, parseCommandLine } from './server/command-line.js';
import { acpStdioStream } from './stdio/acp-stdio-stream.js';
import { routeConsoleToStderr } from './stdio/route-console-to-stderr.js';
import { createStderrLog } from './stdio/stderr-log.js';

// While serving, stdout carries the protocol and nothing else, whatever any code logs.
routeConsoleToStderr();

// An editor may stop reading stderr; the sessions on stdin and stdout must go on regardless.
const log = createStderrLog('dsh-acp: ');

async function serve(command: Extract<Command, { kind: 'serve' }>): Promise<number> {
  let resolved: Awaited<ReturnType<typeof resolveModel>>;
  try {
    resolved = await resolveModel({ ...command, env: process.env });
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    log(error.message);
    return isModelError(error, 'MODEL_OPTIONS_INVALID') ? 2 : 1;
  }
  log(`serving ${resolved.description} over ACP on stdin/stdout`);
  if (process.stdin.isTTY) {
    log('stdin is a terminal: this program is started by an editor (see dsh-acp --help)');
  }
  const { questionTimeoutMs } = command;
  const server = serveAcpAgent(acpStdioStream({ log }), {
    model: resolved.model,
    ...(questionTimeoutMs !== undefined && { questionTimeoutMs }),
    log,
  });
  await server.done;
  return 0;
}

async function main(): Promise<number> {
  let command: Command;
  try {
    command = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    log(`${error.message} (see dsh-acp --help)`);
    return 2;
  }
  if (command.kind === 'help') process.stdout.write(HELP_TEXT);
  else if (command.kind === 'version') process.stdout.write(`${packageAgentInfo().version}\n`);
  else return await serve(command);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
    // The editor is gone and every turn has ended; a model's idle keep-alive socket must
    // not hold the process open.
    setTimeout(() => process.exit(), 1_000).unref();
  },
  (error: unknown) => {
    log(`fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  },
);
