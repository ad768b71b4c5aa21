import { constants } from 'node:os';

/** Signals whose default action ends the program: the terminal must be given back first. */
export const ENDING_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT'];

/** The status a shell reports for a program that `signal` ended: 128 + its number. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + constants.signals[signal];
}
