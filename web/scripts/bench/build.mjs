//! Builds what the benchmarks run: the web assets, then the release server that embeds them.

import { spawnSync } from 'node:child_process';

/**
 * Builds the web assets first: the release binary embeds web/dist at compile time.
 * @param {{ webDir: string, repoDir: string, log: (message: string) => void }} where
 */
export function buildRelease({ webDir, repoDir, log }) {
  const steps = [
    { command: 'npm', args: ['run', 'build'], cwd: webDir },
    { command: 'cargo', args: ['build', '--release', '-p', 'vitrine'], cwd: repoDir },
  ];
  for (const { command, args, cwd } of steps) {
    log(`${command} ${args.join(' ')}`);
    const result = spawnSync(command, args, { cwd, stdio: ['ignore', 2, 2] });
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed`);
  }
}
