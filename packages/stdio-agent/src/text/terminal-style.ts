/** Symbols of the question UI, in Unicode or in plain ASCII. */
export interface TerminalSymbols {
  readonly question: string;
  readonly pointer: string;
  readonly answered: string;
  readonly refused: string;
  readonly withdrawn: string;
  readonly custom: string;
  readonly up: string;
  readonly down: string;
  readonly separator: string;
  /** Before the line that announces a retry of the model request. */
  readonly retry: string;
}

/** How the question UI decorates text on one output. */
export interface TerminalStyle {
  /** Whether colours and text attributes are used. */
  readonly color: boolean;
  readonly symbols: TerminalSymbols;
  bold(text: string): string;
  dim(text: string): string;
  accent(text: string): string;
  success(text: string): string;
  warning(text: string): string;
  /** Red: what a change removes. */
  danger(text: string): string;
  /** Reverse video, for the drawn text cursor: used even without colour, since it carries meaning. */
  inverse(text: string): string;
  /** What a filter matched in a label: bold and underlined; nothing without colour. */
  match(text: string): string;
}

/** What decides the style of an output. */
export interface TerminalStyleOptions {
  readonly env: NodeJS.ProcessEnv;
  /** The output stream; its `getColorDepth` tells what the terminal can show. */
  readonly stream?: { getColorDepth?(env?: NodeJS.ProcessEnv): number };
  /** False for line mode (pipes, logs): colour only when `FORCE_COLOR` asks for it. */
  readonly interactive: boolean;
  readonly platform?: NodeJS.Platform;
}

const UNICODE_SYMBOLS: TerminalSymbols = {
  question: '?',
  pointer: '❯',
  answered: '✔',
  refused: '✖',
  withdrawn: '⊘',
  custom: '✎',
  up: '↑',
  down: '↓',
  separator: '·',
  retry: '↻',
};

const ASCII_SYMBOLS: TerminalSymbols = {
  question: '?',
  pointer: '>',
  answered: 'v',
  refused: 'x',
  withdrawn: '-',
  custom: '*',
  up: '^',
  down: 'v',
  separator: '-',
  retry: '~',
};

function isSet(value: string | undefined): value is string {
  return value !== undefined && value !== '';
}

/** Whether to colour: `FORCE_COLOR` wins, then `NO_COLOR`, then what the terminal supports. */
export function colorEnabled(options: TerminalStyleOptions): boolean {
  const { env } = options;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (isSet(env.NO_COLOR) || isSet(env.NODE_DISABLE_COLORS)) return false;
  if (env.TERM === 'dumb' || !options.interactive) return false;
  return (options.stream?.getColorDepth?.(env) ?? 1) >= 4;
}

/** Whether the terminal can be expected to draw the Unicode symbols. */
export function unicodeSupported(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): boolean {
  if (platform !== 'win32') return env.TERM !== 'linux';
  return (
    isSet(env.WT_SESSION) ||
    isSet(env.TERMINUS_SUBLIME) ||
    env.ConEmuTask === '{cmd::Cmder}' ||
    env.TERM_PROGRAM === 'vscode' ||
    env.TERM === 'xterm-256color' ||
    env.TERM === 'alacritty' ||
    env.TERMINAL_EMULATOR === 'JetBrains-JediTerm'
  );
}

function sgr(open: number, close: number): (text: string) => string {
  return (text) => (text === '' ? '' : `\u001b[${open}m${text}\u001b[${close}m`);
}

const plain = (text: string): string => text;

/** The style of one output, decided once per question. */
export function terminalStyle(options: TerminalStyleOptions): TerminalStyle {
  const color = colorEnabled(options);
  const unicode = unicodeSupported(options.env, options.platform ?? process.platform);
  return {
    color,
    symbols: unicode ? UNICODE_SYMBOLS : ASCII_SYMBOLS,
    bold: color ? sgr(1, 22) : plain,
    dim: color ? sgr(2, 22) : plain,
    accent: color ? sgr(36, 39) : plain,
    success: color ? sgr(32, 39) : plain,
    warning: color ? sgr(33, 39) : plain,
    danger: color ? sgr(31, 39) : plain,
    inverse: sgr(7, 27),
    match: color ? (text) => (text === '' ? '' : `\u001b[1;4m${text}\u001b[22;24m`) : plain,
  };
}
