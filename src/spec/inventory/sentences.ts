import { createHash } from 'node:crypto';

/**
 * Splits the spec's markdown into its sentences, section by section, so the inventory can prove it holds
 * every one: a paragraph or list entry is cut after each full stop that a capital follows, a table row is
 * one sentence, and headings, table heads and separators are no sentences. Each sentence is known by a short
 * digest, so the project holds no spec text, yet any edit of a sentence shows as a changed digest.
 */
export interface SpecSentence {
  section: string;
  digest: string;
  /** The sentence itself: for reports built at run time only, never stored in the project. */
  text: string;
}

export const sentenceDigest = (text: string): string => createHash('sha256').update(text.replace(/\s+/g, ' ').trim()).digest('hex').slice(0, 8);

const splitProse = (line: string): string[] =>
  line
    .split(/(?<=\.)\s+(?=[A-Z{"])/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

export function specSentences(markdown: string): SpecSentence[] {
  const out: SpecSentence[] = [];
  let section = '§0';
  let tableHead = false;
  for (const raw of markdown.split('\n')) {
    const line = raw.trim();
    const heading = /^##\s+(\d+)\./.exec(line);
    if (heading) section = `§${heading[1]}`;
    if (line === '' || line.startsWith('#')) {
      tableHead = false;
      continue;
    }
    if (line.startsWith('|')) {
      if (/^\|[-|\s]+\|$/.test(line)) continue;
      // The first row of a table is its head; every later row is one sentence.
      if (!tableHead) {
        tableHead = true;
        continue;
      }
      out.push({ section, digest: sentenceDigest(line), text: line });
      continue;
    }
    tableHead = false;
    const body = line.replace(/^(?:-|\d+\.)\s+/, '');
    for (const text of splitProse(body)) out.push({ section, digest: sentenceDigest(text), text });
  }
  return out;
}
