// An OAuth app's icon is an https image URL or the name of an icon in the set
// the web app draws (Tabler). A name the web app cannot draw is refused at
// save, with a hint of names that exist, so no app is stored with an icon that
// silently falls back to initials.
import { ICON_NAMES, ICON_SET } from './icon-names.js';

const MAX_HINTS = 5;

/** Close names for a hint: those that contain the typed name or its words, shortest first. */
export function suggestIconNames(name: string): string[] {
  const wanted = name.toLowerCase().replace(/^[a-z0-9]+:/, '');
  const words = wanted.split(/[^a-z0-9]+/).filter((w) => w.length >= 2);
  const scored: { name: string; score: number }[] = [];
  for (const candidate of ICON_NAMES) {
    if (candidate.endsWith('-filled')) continue;
    let score = candidate.includes(wanted) ? 100 : 0;
    for (const w of words) if (candidate.split('-').includes(w)) score += 10;
    if (score > 0) scored.push({ name: candidate, score: score - candidate.length / 100 });
  }
  scored.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
  return scored.slice(0, MAX_HINTS).map((s) => s.name);
}

/** Null when the name is in the icon set; otherwise the message, with suggestions. */
export function iconNameProblem(name: string): string | null {
  if (ICON_NAMES.has(name)) return null;
  const hints = suggestIconNames(name);
  const examples = hints.length > 0 ? hints : ['cloud-upload', 'photo', 'folder', 'app-window'];
  return `${JSON.stringify(name.slice(0, 64))} is not an https URL nor a ${ICON_SET} icon name; ${hints.length > 0 ? 'did you mean' : 'for example'}: ${examples.join(', ')}`;
}
