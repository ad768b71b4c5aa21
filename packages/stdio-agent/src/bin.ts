#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { isModelError, resolveModel, UsageError } from 'dsh-agent';
import { isHarnessError } from 'dsh-user-interaction';
import { ENDING_SIGNALS, signalExitCode } from './question-ui/terminal/ending-signals.js';
import { restoreTerminal } from './question-ui/terminal/restore-terminal.js';
import { HELP_TEXT } from './terminal-agent/help-text.js';
import { type Command, parseCommandLine } from './terminal-agent/parse-command-line.js';
import { runTerminalAgent } from './terminal-agent/terminal-agent.js';

const PROGRAM = 'dsh-stdio-agent';
const TRY_HELP = `(try ${PROGRAM} --help)`;
// Node's 500 ms makes Esc (decline a question) feel slow; 100 ms still keeps arrow keys whole
// over a remote link.
const ESCAPE_CODE_TIMEOUT_MS = 100;

/** This package's version, from its `package.json` (one folder above both `src/` and `dist/`). */
function packageVersion(): string {
  const manifest = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  return (JSON.parse(manifest) as { version: string }).version;
}

function say(line: string): void {
  process.stderr.write(`${PROGRAM}: ${line}\n`);
}

/** Gives the terminal back on every way out: the end, a signal that ends the program, a crash. */
function restoreOnExit(): void {
  process.on('exit', () => restoreTerminal(process.stdin, process.stdout));
  for (const signal of ENDING_SIGNALS) {
    // SIGINT is the agent's Ctrl+C (`interrupts`): it cancels a turn, or quits at the prompt.
    if (signal === 'SIGINT') continue;
    // Left to its default action, the signal would end the process with no `exit` event,
    // raw mode still on: exit instead, with the status the signal would have given.
    process.on(signal, () => process.exit(signalExitCode(signal)));
  }
  process.on('uncaughtException', (error) => {
    restoreTerminal(process.stdin, process.stdout);
    say(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
    process.exit(1);
  });
}

async function chat(command: Extract<Command, { kind: 'chat' }>): Promise<number> {
  let resolved: Awaited<ReturnType<typeof resolveModel>>;
  try {
    resolved = await resolveModel({
      ...(command.model !== undefined && { model: command.model }),
      ...(command.baseUrl !== undefined && { baseUrl: command.baseUrl }),
      ...(command.script !== undefined && { script: command.script }),
      ...(command.thinking !== undefined && { thinking: command.thinking }),
      env: process.env,
    });
  } catch (error) {
    if (isModelError(error, 'MODEL_OPTIONS_INVALID')) {
      say(`${error.message} ${TRY_HELP}`);
      return 2;
    }
    // An unreadable or invalid script: its message names the file and the field.
    if (isHarnessError(error)) {
      say(error.message);
      return 1;
    }
    throw error;
  }
  restoreOnExit();
  const { questionTimeoutMs, color, showThinking } = command;
  return runTerminalAgent({
    model: resolved.model,
    modelDescription: resolved.description,
    ...(questionTimeoutMs !== undefined && { questionTimeoutMs }),
    ...(color !== undefined && { color }),
    ...(showThinking !== undefined && { showThinking }),
    escapeCodeTimeout: ESCAPE_CODE_TIMEOUT_MS,
    interrupts: process,
  });
}

async function main(): Promise<number> {
  let command: Command;
  try {
    command = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    say(`${error.message} ${TRY_HELP}`);
    return 2;
  }
  if (command.kind === 'help') process.stdout.write(HELP_TEXT);
  else if (command.kind === 'version') process.stdout.write(`${packageVersion()}\n`);
  else return chat(command);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
    // Everything has ended; an idle keep-alive socket of a model server must not hold the
    // process open.
    setTimeout(() => process.exit(), 1_000).unref();
  },
  (error: unknown) => {
    say(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
    process.exitCode = 1;
  },
);
