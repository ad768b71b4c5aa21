#!/usr/bin/env node
// `pnpm run install-programs [-- DIR]`: until the packages are published, puts `dsh-stdio-agent`
// and `dsh-acp` on the PATH from this clone. It builds what changed, then writes in DIR (default
// ~/.local/bin) one small sh script per program that runs the clone's build with this node, so
// both work in any folder, and an editor can start `dsh-acp` by its name or its full path.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildChanged } from './build-changed.mjs';
import { programArguments } from './start-command.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PROGRAMS = ['dsh-stdio-agent', 'dsh-acp'];
/** The line that marks a file as ours, so that running again replaces it and nothing else. */
const MARK = '# Written by scripts/install-programs.mjs of a dsh clone: runs its build.';

/** `text` as one sh word, whatever it holds. */
function shellWord(text) {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The sh script that runs `bin` with `node`, its arguments passed on as given. */
export function launcher(node, bin) {
  return `#!/bin/sh\n${MARK}\nexec ${shellWord(node)} ${shellWord(bin)} "$@"\n`;
}

function fail(line) {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.platform === 'win32') fail('install-programs writes sh scripts: not on Windows.');
  const args = programArguments(process.argv.slice(2));
  if (args.length > 1 || args[0]?.startsWith('-')) {
    fail('Usage: pnpm run install-programs [-- DIR]   (DIR: default ~/.local/bin)');
  }
  const dir = resolve(args[0] ?? join(homedir(), '.local', 'bin'));
  const { plan, status } = buildChanged(ROOT, PROGRAMS);
  if (status !== 0) fail('The build failed: nothing was installed.');
  mkdirSync(dir, { recursive: true });
  for (const name of PROGRAMS) {
    const path = join(dir, name);
    if (existsSync(path) && !readFileSync(path, 'utf8').includes(MARK)) {
      fail(`${path} exists and was not written by this script: left as it is, nothing installed.`);
    }
  }
  for (const name of PROGRAMS) {
    const entry = plan.find((each) => each.manifest.bin?.[name] !== undefined);
    const path = join(dir, name);
    writeFileSync(path, launcher(process.execPath, join(entry.dir, entry.manifest.bin[name])));
    chmodSync(path, 0o755);
    process.stdout.write(`${path}\n`);
  }
  const onPath = (process.env.PATH ?? '').split(delimiter).some((each) => resolve(each) === dir);
  process.stdout.write(
    onPath
      ? 'Both are on your PATH. Run dsh-stdio-agent in your project; give editors dsh-acp.\n'
      : `${dir} is not on your PATH: add it (export PATH="${dir}:$PATH"), or use the full paths above.\n`,
  );
}
