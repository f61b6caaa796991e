// The map tile URL of the Photos page (site setting `map_tile_url`): what an
// administrator may set, and the origin the page's Content-Security-Policy
// then lets images come from. Empty means no map and no other origin.
import { DomainError, ErrorCode } from '../core/errors.js';

const PLACEHOLDERS = ['{z}', '{x}', '{y}'];

/** The URL with the placeholders filled, parsed; undefined when it is not an http(s) URL without credentials. */
function parse(template: string): URL | undefined {
  try {
    const url = new URL(template.replaceAll('{z}', '0').replaceAll('{x}', '0').replaceAll('{y}', '0'));
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) return undefined;
    return url;
  } catch {
    return undefined;
  }
}

/** Refuses a tile URL that is not '' or an http(s) URL holding {z}, {x} and {y}. */
export function checkMapTileUrl(value: string | undefined): void {
  if (value === undefined || value === '') return;
  if (!PLACEHOLDERS.every((p) => value.includes(p)) || !parse(value)) {
    throw new DomainError(ErrorCode.ParamError, 'map_tile_url: must be an http(s) URL with {z}, {x} and {y}, such as https://tile.example.org/{z}/{x}/{y}.png');
  }
}

/** The origin map tiles come from ([] when there is no map): the pages' img-src adds it. */
export function mapTileOrigins(value: string): string[] {
  if (!value) return [];
  const url = parse(value);
  return url ? [url.origin] : [];
}
