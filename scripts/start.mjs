#!/usr/bin/env node
// `pnpm start`: builds what changed since the last build (and only what the terminal agent
// needs), then runs the terminal agent with the flags given, so that `pnpm start -- --help`
// works and hints name the command as it was typed.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildChanged } from './build-changed.mjs';
import { agentInProcess, programArguments, startedAs } from './start-command.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PROGRAM = 'dsh-stdio-agent';

const { plan, status } = buildChanged(ROOT, [PROGRAM]);
if (status !== 0) {
  process.stderr.write('The build failed: the agent was not started.\n');
  process.exit(status);
}

const args = programArguments(process.argv.slice(2));
// Hints of the program name the command as typed: `(try pnpm start -- --help)`.
process.env.DSH_COMMAND = startedAs(process.env);
const { dir, manifest } = plan.at(-1);
const bin = join(dir, manifest.bin[PROGRAM]);

if (agentInProcess(process.env)) {
  // Nothing between the terminal and the agent passes a Ctrl+C on a second time (pnpm 12
  // leaves SIGINT to its script, and forwards SIGTERM and SIGHUP): the agent runs in this
  // process, which saves a second Node start (bench/pnpm-start.bench.ts).
  process.argv = [process.argv[0], bin, ...args];
  await import(pathToFileURL(bin).href);
} else {
  // A Ctrl+C reaches every process of the terminal's foreground group, and a package manager
  // written for Node sends its own SIGINT on to this script: only the agent, a child of its
  // own, gets the terminal's, and decides what it means (cancel a turn, quit). This process
  // only passes its status on.
  for (const signal of ['SIGINT', 'SIGQUIT']) process.on(signal, () => {});
  for (const signal of ['SIGTERM', 'SIGHUP']) {
    process.on(signal, () => agent.kill(signal));
  }
  const agent = spawn(process.execPath, [...process.execArgv, bin, ...args], { stdio: 'inherit' });
  agent.on('error', (error) => {
    process.stderr.write(`The agent could not be started: ${error.message}\n`);
    process.exit(1);
  });
  agent.on('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    // Ended by a signal: end the same way, so that the shell reports what happened.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
}
