import { packageBuild } from '../../../tsup.config.base.js';

export default packageBuild([
  'src/index.ts',
  'src/testing.ts',
  'src/in-turn.ts',
  'src/provider.ts',
  'src/agent-tool.ts',
  'src/host.ts',
  'src/text.ts',
]);
