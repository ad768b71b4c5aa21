import { describe, expect, it } from 'vitest';
import { colorEnabled, terminalStyle, unicodeSupported } from '../../src/text/terminal-style.js';

const colorTerminal = { getColorDepth: () => 8 };
const monochrome = { getColorDepth: () => 1 };

describe('colorEnabled', () => {
  it('colours an interactive terminal that has colours', () => {
    expect(colorEnabled({ env: {}, stream: colorTerminal, interactive: true })).toBe(true);
  });

  it('does not colour a terminal without colours, a dumb one or line mode', () => {
    expect(colorEnabled({ env: {}, stream: monochrome, interactive: true })).toBe(false);
    expect(colorEnabled({ env: { TERM: 'dumb' }, stream: colorTerminal, interactive: true })).toBe(
      false,
    );
    expect(colorEnabled({ env: {}, stream: colorTerminal, interactive: false })).toBe(false);
    expect(colorEnabled({ env: {}, interactive: true })).toBe(false);
  });

  it('honours NO_COLOR and NODE_DISABLE_COLORS, but not when empty', () => {
    expect(colorEnabled({ env: { NO_COLOR: '1' }, stream: colorTerminal, interactive: true })).toBe(
      false,
    );
    expect(
      colorEnabled({ env: { NODE_DISABLE_COLORS: '1' }, stream: colorTerminal, interactive: true }),
    ).toBe(false);
    expect(colorEnabled({ env: { NO_COLOR: '' }, stream: colorTerminal, interactive: true })).toBe(
      true,
    );
  });

  it('lets FORCE_COLOR win either way, line mode included', () => {
    const env = { FORCE_COLOR: '1', NO_COLOR: '1' };
    expect(colorEnabled({ env, stream: monochrome, interactive: false })).toBe(true);
    expect(colorEnabled({ env: { FORCE_COLOR: '' }, interactive: false })).toBe(true);
    expect(
      colorEnabled({ env: { FORCE_COLOR: '0' }, stream: colorTerminal, interactive: true }),
    ).toBe(false);
    expect(
      colorEnabled({ env: { FORCE_COLOR: 'false' }, stream: colorTerminal, interactive: true }),
    ).toBe(false);
  });
});

describe('terminalStyle', () => {
  it('writes no escape sequence at all without colour, except the drawn cursor', () => {
    const style = terminalStyle({
      env: { NO_COLOR: '1' },
      stream: colorTerminal,
      interactive: true,
    });
    expect(style.color).toBe(false);
    for (const decorate of [style.bold, style.dim, style.accent, style.success, style.warning]) {
      expect(decorate('text')).toBe('text');
    }
    expect(style.inverse('x')).toBe('\u001b[7mx\u001b[27m');
  });

  it('decorates with colours when they are on', () => {
    const style = terminalStyle({ env: {}, stream: colorTerminal, interactive: true });
    expect(style.accent('text')).toBe('\u001b[36mtext\u001b[39m');
    expect(style.bold('')).toBe('');
  });

  it('falls back to ASCII symbols where Unicode cannot be drawn', () => {
    expect(unicodeSupported({ TERM: 'xterm-256color' }, 'linux')).toBe(true);
    expect(unicodeSupported({ TERM: 'linux' }, 'linux')).toBe(false);
    expect(unicodeSupported({}, 'win32')).toBe(false);
    expect(unicodeSupported({ WT_SESSION: 'x' }, 'win32')).toBe(true);
    const ascii = terminalStyle({ env: { TERM: 'linux' }, interactive: true, platform: 'linux' });
    expect(ascii.symbols.pointer).toBe('>');
  });
});
