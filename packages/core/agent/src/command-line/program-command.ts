/**
 * The environment variable that says how the person started the program, when it was not by
 * its own name: the command that flags follow, such as `pnpm start --` in a clone of the
 * repository (set by its start script).
 */
export const COMMAND_ENV = 'DSH_COMMAND';

/** How the person started the program, for the hints that name it. */
export interface ProgramCommand {
  /** The command alone, as typed to start it again: `dsh-stdio-agent`, or `pnpm start`. */
  readonly name: string;
  /** The command with these flags: `dsh-stdio-agent --help`, or `pnpm start -- --help`. */
  withFlags(flags: string): string;
}

/**
 * The command that started the program named `program`: `DSH_COMMAND` when it is set (the
 * command that flags follow; a trailing `--` is left out of `name`), else the program's name.
 */
export function programCommand(
  program: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ProgramCommand {
  const given = env[COMMAND_ENV]?.trim().replace(/\s+/g, ' ');
  const prefix = given === undefined || given === '' ? program : given;
  const name = prefix.replace(/ --$/, '');
  return {
    name,
    withFlags: (flags) => (flags === '' ? name : `${prefix} ${flags}`),
  };
}
