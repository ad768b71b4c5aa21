import { packageBuild } from '../../tsup.config.base.js';

export default packageBuild(
  ['src/index.ts', 'src/terminal-agent.ts', 'src/testing.ts', 'src/bin.ts'],
  ['src/index.ts', 'src/terminal-agent.ts', 'src/testing.ts'],
);
