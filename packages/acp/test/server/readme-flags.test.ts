import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HELP_TEXT } from '../../src/server/help-text.js';

// The README's flags table is kept by hand: every flag of `dsh-acp --help` must be in it
// (issue 34: --allow, --deny, --permission-mode and --permissions were missing).

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('the dsh-acp README', () => {
  it('lists every flag of --help in its flags table', () => {
    const flags = [...new Set([...HELP_TEXT.matchAll(/^\s+(--[a-z-]+)/gm)].map((m) => m[1]))];
    expect(flags).toContain('--permission-mode');
    const table = README.slice(README.indexOf('#### Flags'), README.indexOf('| Environment |'));
    for (const flag of flags) expect(table, flag).toMatch(new RegExp(`\\| \`${flag}[ \`]`));
  });

  it('says the session has workspace tools, and what the demo asks approval for', () => {
    expect(README).not.toContain('no tools besides');
    expect(README).toMatch(/The session's tools are `ask_user_question`, the workspace tools/);
    expect(README).toMatch(
      /At the next\s+message it reads `PLAN\.md`[\s\S]{0,120}permission prompt/,
    );
  });
});
