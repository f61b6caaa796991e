import type { Config } from '../config.js';

/** `app create` arrives with the OAuth feature. */
export async function appCommand(_config: Config, _sub: string | undefined, _args: string[]): Promise<number> {
  console.error('cirrus: the app command is not available yet');
  return 2;
}
