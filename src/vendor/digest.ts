import { createHash } from 'node:crypto';

/** JSON with keys sorted at every depth and no whitespace: the same value always gives the same bytes. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sorted(value));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** `sha256:<hex>` of a text's UTF-8 bytes. */
export function sha256(text: string): string {
  return `sha256:${sha256Hex(text)}`;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The detached digest in the format `sha256sum -c` reads: `<hex>  <file name>`. */
export function detachedDigest(fileText: string, fileName: string): string {
  return `${sha256Hex(fileText)}  ${fileName}\n`;
}

/** The hex digest and file name of a detached digest line; undefined when the text is not one. */
export function readDetachedDigest(text: string): { hex: string; fileName: string } | undefined {
  const match = /^([0-9a-f]{64}) [ *](.+)$/.exec(text.trim());
  return match ? { hex: match[1]!, fileName: match[2]! } : undefined;
}
