// Its own file: the rules and the policy name commands at every start, while the command reader
// (`analyse-command.ts` and the wrappers and programs it knows) loads with the first command.

/**
 * A program right in a folder of the system's: `/bin/rm` is `rm`. Right in it:
 * `/usr/bin/../../tmp/rm` starts the same way and runs another program.
 */
const SYSTEM_PROGRAM = /^\/(?:usr\/(?:local\/)?)?s?bin\/[^/]+$/;

/** The name a command is known by: `/bin/rm` and `/usr/bin/rm` are `rm`; `./rm` stays itself. */
export function commandName(word: string): string {
  return SYSTEM_PROGRAM.test(word) ? word.slice(word.lastIndexOf('/') + 1) : word;
}
