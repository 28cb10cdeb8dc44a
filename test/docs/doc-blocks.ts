/**
 * The code blocks of Loom's Markdown pages, and the folder a reader runs them in. The docs tests
 * take both from here, so a page is read and run one way.
 */
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The blocks fenced as one of `languages`, in order, as a reader copies them: a block indented
 * inside a list item loses that indentation.
 */
export function fencedBlocks(markdown: string, languages: string[]): string[] {
  const fence = new RegExp(`^( *)\`\`\`(?:${languages.join('|')})\\n([\\s\\S]*?)^\\1\`\`\`$`, 'gm');
  return [...markdown.matchAll(fence)].map(([, indent, body]) => body!.replace(new RegExp(`^${indent}`, 'gm'), ''));
}

/** The Markdown pages whose examples are Loom's promise: the README, docs/ and the examples' READMEs. */
export function markdownPages(): string[] {
  const under = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return under(path);
      return entry.name.endsWith('.md') ? [path] : [];
    });
  return ['README.md', ...under('docs'), ...under('examples')].sort();
}

/**
 * Makes `directory` what a reader works in: `bin/loom` is Loom's command, as the docs run it, and
 * it is a fresh Node project as `npm init -y` makes one (CommonJS, which recent npm writes out as
 * `"type": "commonjs"` and older npm means by writing nothing) with the packages the examples
 * import installed: the npm clients `fb` and `fbgraph`, and `loom` linked to this checkout, as
 * `npm install path/to/loom` links it (so `loom/testing` resolves through Loom's own exports).
 */
export function makeReaderProject(directory: string): void {
  mkdirSync(join(directory, 'bin'), { recursive: true });
  symlinkSync(resolve('bin/loom'), join(directory, 'bin/loom'));
  writeFileSync(join(directory, 'package.json'), `${JSON.stringify({ name: 'reader', version: '1.0.0', main: 'index.js', type: 'commonjs' }, null, 2)}\n`);
  mkdirSync(join(directory, 'node_modules'));
  for (const client of ['fb', 'fbgraph']) symlinkSync(resolve('node_modules', client), join(directory, 'node_modules', client));
  symlinkSync(resolve('.'), join(directory, 'node_modules', 'loom'));
}
