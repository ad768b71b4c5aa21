/**
 * What the policy knows of one program or builtin, in one record: how it runs another command
 * (so that deny rules meet that command), whether it runs it as another user, whether it runs text
 * no rule can check, which of its own options make it run code or write elsewhere, and how many
 * of its words name it for an "always" rule.
 */
export interface ProgramRecord {
  /** It runs the command its words name after its options (`env`, `nice`, `timeout`, `sudo`). */
  readonly wraps?: {
    /** Options that take a value (the rest of a short cluster, `=value`, or the next word). */
    readonly valueOptions: readonly string[];
    /** Long options that take none: any other long option is not read here, and asks. */
    readonly flags?: readonly string[];
    /** Words between its options and the command (`timeout 10 cmd`: one). */
    readonly before?: number;
    /** With `-p`, it changes a running process and starts none (`chrt -p`, `taskset -p`). */
    readonly pidMode?: boolean;
    /** Without a command it opens a shell (`sudo`, `exec`): nothing to check. */
    readonly shellWhenAlone?: boolean;
    /** Without a command it runs this one (`xargs` runs `echo`). */
    readonly defaultCommand?: string;
    /** It adds words of its own input to the command (`xargs`): a rule cannot see them. */
    readonly addsWords?: boolean;
    /** Nothing about it changes what runs (`nice`, `timeout`): a rule for the command allows it. */
    readonly transparent?: boolean;
  };
  /** It runs the command as another user: deny rules apply to it, allow rules never. */
  readonly elevates?: boolean;
  /** It runs commands its words cannot show (`parallel`, `tmux`): no rule may allow it. */
  readonly opaque?: boolean;
  /** It runs text as shell code (`eval`, `source`): no rule may allow it. */
  readonly evaluates?: boolean;
  /** A builtin that changes how the shell reads or runs what follows: no rule may allow it. */
  readonly shellState?: boolean;
  /** A shell: `bash` (the grammar read here) or another one. */
  readonly shell?: 'bash' | 'other';
  /** Why its own words make it run code or write elsewhere, if they do. */
  readonly check?: (words: readonly string[]) => string | undefined;
  /** How many words name it for an "always" rule (`git commit`: 2). Default 1. */
  readonly arity?: number;
  /** Its subcommands that take one more word (`npm run build`, `pnpm exec tsc`). */
  readonly longer?: readonly string[];
  /** Subcommands that take a container, then the command run in it (`docker exec web ls`). */
  readonly inContainer?: readonly string[];
}

/** A wrapper's part of a record. */
export const wraps = (
  valueOptions: readonly string[],
  more: Omit<NonNullable<ProgramRecord['wraps']>, 'valueOptions'> = {},
): NonNullable<ProgramRecord['wraps']> => ({ valueOptions, ...more });
