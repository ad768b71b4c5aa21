import type { CommandAnalysis } from './command/analyse-command.js';

/**
 * Lists every simple command a command line would run, and says in `problem` why no rule may
 * allow it, if one is (see `command/analyse-command.ts`). The command reader, about 50 KB of
 * rules for Bash, its wrappers and its programs, loads with the first command: importing
 * dsh-tools, and a program's start up to its first question, never wait for it.
 */
export async function analyseCommand(
  command: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<CommandAnalysis> {
  return (await import('./command/analyse-command.js')).analyseCommand(command, env);
}
