/**
 * Variables a command may set and still be allowed by a rule: ones no program reads as a
 * command, a path to load from or options to obey. Every other one asks, whatever its case, for
 * no list can name every one that does (`PATH`, `EDITOR`, `npm_config_*`, `pnpm_config_*`,
 * `GIT_*`, `*_OPTIONS`, `LD_*`, `BASH_ENV`, `ENV`, `PROMPT_COMMAND`, ...).
 */
const INERT_VARIABLE =
  /^(?:CI|NODE_ENV|FORCE_COLOR|NO_COLOR|TERM|COLUMNS|LINES|LANG|LANGUAGE|LC_[A-Z]+|TZ|DEBUG|RUST_LOG|RUST_BACKTRACE|GOOS|GOARCH|CGO_ENABLED|PYTHONUNBUFFERED|PYTHONDONTWRITEBYTECODE|PYTHONIOENCODING|NODE_NO_WARNINGS)$/;

/**
 * Whether setting `variable` (to `value`) may change what a command runs (see `INERT_VARIABLE`).
 * A locale is inert only when it is C, POSIX or UTF-8: in GBK, Big5 or Shift-JIS a byte of a
 * character may be `\\` or a quote, so `LC_ALL=zh_CN.GBK bash -c '…'` (or `sed`) reads a script
 * otherwise than it was checked.
 */
export function changesWhatRuns(variable: string, value = ''): boolean {
  if (!INERT_VARIABLE.test(variable)) return true;
  return /^(?:LANG|LC_)/.test(variable) && !/^(?:C|POSIX|[\w@-]+\.(?:UTF-8|utf8))?$/.test(value);
}

/** Why no rule may allow a command that sets `variable`. */
export function setsProblem(variable: string): string {
  return `it sets ${variable}, which can change what the command runs`;
}
