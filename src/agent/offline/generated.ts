/**
 * Files the offline injector leaves alone although they are code: vendored
 * copies of other projects and files a tool generated. A bug in them is not a
 * bug a person would make (the next `go generate` undoes it), and a generated
 * file can be enormous: bits-and-blooms/bitset's 504 KB pext.gen.go holds
 * about 131,000 mutation sites. One rule for every language, by path first
 * (before anything is read) and then by the file's first lines.
 */

/** Folders that hold other projects' code, copied in. */
const VENDORED = /(^|\/)(vendor|node_modules|third_party|bower_components)\//;

/** File names that tools write: protobuf and gRPC stubs, minified or bundled JavaScript, Go's generated-name habits. */
const GENERATED_NAME = /(_pb2(_grpc)?\.py|\.pb(\.gw)?\.go|_pb\.(js|ts|d\.ts)|\.min\.(js|mjs|cjs)|\.bundle\.(js|mjs)|(\.gen|[._]generated)\.(go|ts|js|py))$/;

/** Go's convention (https://go.dev/s/generatedcode): a line of exactly this form before the package clause. */
const GO_GENERATED = /^\/\/ Code generated .* DO NOT EDIT\.$/m;

/** The markers other generators put in their first lines. */
const GENERATED_MARK = /@generated\b|\bDO NOT EDIT\b|\bauto-?generated\b|\bCode generated\b/i;

/** How much of a file's head is looked at for a marker. */
const HEAD_LINES = 12;
/** A line longer than this on average is minified code, not code a person wrote. */
const MINIFIED_LINE = 500;

/** Why a file is left out by its path alone (vendored or a generated name), or undefined. */
export function skippedByPath(path: string): string | undefined {
  const vendored = VENDORED.exec(path);
  if (vendored) return `vendored (${vendored[2]}/)`;
  if (GENERATED_NAME.test(path)) return 'generated (by its name)';
  return undefined;
}

/** Why a file is left out, by its path or its first lines, or undefined for code a person wrote. */
export function skippedReason(path: string, text: string): string | undefined {
  const byPath = skippedByPath(path);
  if (byPath) return byPath;
  // Go's marker may sit below a build constraint or a long comment, but always above `package`.
  const packageAt = path.endsWith('.go') ? text.search(/^package\s/m) : -1;
  if (packageAt >= 0 && GO_GENERATED.test(text.slice(0, packageAt))) return 'generated ("Code generated … DO NOT EDIT")';
  const head = headLines(text, HEAD_LINES);
  const mark = GENERATED_MARK.exec(head);
  if (mark) return `generated ("${mark[0]}" in its first lines)`;
  const lines = countLines(text);
  if (text.length > 4096 && text.length / lines > MINIFIED_LINE) return 'minified';
  return undefined;
}

function headLines(text: string, count: number): string {
  let end = 0;
  for (let i = 0; i < count && end >= 0; i++) end = text.indexOf('\n', end + 1);
  return end < 0 ? text : text.slice(0, end);
}

function countLines(text: string): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

/** The sentence that tells which files were left out and why, or '' when none were. */
export function skippedSentence(skipped: Map<string, string>): string {
  if (skipped.size === 0) return '';
  const shown = [...skipped].slice(0, 6).map(([file, why]) => `${file} (${why})`);
  const more = skipped.size > shown.length ? ` and ${skipped.size - shown.length} more` : '';
  return `I leave out ${skipped.size} generated or vendored file(s), where a bug is not one a person would make: ${shown.join(', ')}${more}.`;
}
