/**
 * The flags every program built on `dsh-agent/command-line` takes, as its `--help` names them:
 * a program's help test checks these and its own.
 */
export const AGENT_PROGRAM_FLAGS: readonly string[] = [
  '--script FILE',
  '--base-url URL',
  '--model NAME',
  '--timeout TIME',
  '--request-timeout TIME',
  '--retries N',
];
