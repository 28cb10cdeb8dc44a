// What the import rules of .dependency-cruiser.cjs cannot say on their own, checked over src/:
// the rooms (top-level folders and leaf files of src/) import each other in no circle; no circle
// of files is larger than four; no file is over 450 lines; no interface that src/store/ exports
// has more than 20 members. Findings listed in scripts/structure-known.json are being moved away
// and pass; any other one fails. `--forget-fixed` drops from that list what no longer occurs.
//
// Usage: node scripts/check-structure.mjs [--forget-fixed] [ROOT]   (ROOT: the project, default .)
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import ts from 'typescript';

const MAX_FILE_CIRCLE = 4;
const MAX_LINES = 450;
const MAX_STORE_MEMBERS = 20;

const args = process.argv.slice(2);
const forgetFixed = args.includes('--forget-fixed');
const root = resolve(args.find((arg) => !arg.startsWith('--')) ?? '.');
process.chdir(root);
const knownFile = join(root, 'scripts', 'structure-known.json');

/** The room a file of src/ belongs to: its top-level folder, or the leaf file's own name. */
function roomOf(path) {
  const [, first, rest] = path.match(/^src\/([^/]+)(\/.*)?$/) ?? [];
  if (first === undefined) return undefined;
  return rest === undefined ? first.replace(/\.ts$/, '') : first;
}

/** Strongly connected components of a graph given as node → set of nodes (Tarjan's algorithm). */
function circles(graph) {
  let index = 0;
  const indices = new Map();
  const lowest = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (node) => {
    indices.set(node, index);
    lowest.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        lowest.set(node, Math.min(lowest.get(node), lowest.get(next)));
      } else if (onStack.has(next)) {
        lowest.set(node, Math.min(lowest.get(node), indices.get(next)));
      }
    }
    if (lowest.get(node) === indices.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}

async function importsOfSrc() {
  // The project's own rules file, wherever the tree checked is.
  const options = await extractDepcruiseOptions(fileURLToPath(new URL('../.dependency-cruiser.cjs', import.meta.url)));
  const { output } = await cruise(['src'], { ...options, ruleSet: undefined, validate: false }, {}, { tsConfig: extractTSConfig('tsconfig.json') });
  const files = new Map();
  for (const module of output.modules) {
    if (!module.source.startsWith('src/')) continue;
    files.set(module.source, new Set(module.dependencies.map((dependency) => dependency.resolved).filter((target) => target.startsWith('src/'))));
  }
  return files;
}

function roomGraph(files) {
  const rooms = new Map();
  for (const [file, targets] of files) {
    const from = roomOf(file);
    if (!rooms.has(from)) rooms.set(from, new Set());
    for (const target of targets) if (roomOf(target) !== from) rooms.get(from).add(roomOf(target));
  }
  return rooms;
}

function longFiles(files) {
  return [...files.keys()].filter((file) => readFileSync(file, 'utf8').split('\n').length - 1 > MAX_LINES).sort();
}

/** `file Interface` of each interface exported by src/store/ with more members than allowed, its own and inherited. */
function largeStoreInterfaces(files) {
  const config = extractTSConfig('tsconfig.json');
  const storeFiles = [...files.keys()].filter((file) => file.startsWith('src/store/'));
  const program = ts.createProgram(storeFiles, config.options);
  const checker = program.getTypeChecker();
  const large = [];
  for (const file of storeFiles) {
    const source = program.getSourceFile(file);
    for (const statement of source?.statements ?? []) {
      if (!ts.isInterfaceDeclaration(statement)) continue;
      if (!statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) continue;
      const members = checker.getPropertiesOfType(checker.getTypeAtLocation(statement.name)).length;
      if (members > MAX_STORE_MEMBERS) large.push({ name: `${file} ${statement.name.text}`, members });
    }
  }
  return large;
}

const files = await importsOfSrc();
const found = {
  roomCircles: circles(roomGraph(files)),
  fileCircles: circles(files).filter((component) => component.length > MAX_FILE_CIRCLE),
  longFiles: longFiles(files),
  largeStoreInterfaces: largeStoreInterfaces(files).map((entry) => entry.name),
};
const described = {
  roomCircles: (circle) => `rooms import each other in a circle: ${circle.join(', ')}`,
  fileCircles: (circle) => `${circle.length} files import each other in a circle (at most ${MAX_FILE_CIRCLE}): ${circle.join(', ')}`,
  longFiles: (file) => `${file} has more than ${MAX_LINES} lines`,
  largeStoreInterfaces: (name) => `${name} has more than ${MAX_STORE_MEMBERS} members`,
};

const known = existsSync(knownFile) ? JSON.parse(readFileSync(knownFile, 'utf8')) : {};
/** A circle is known when a known one holds all its members: it may shrink, never grow. */
const covers = (kind, knownEntry, entry) => (Array.isArray(entry) ? entry.every((member) => knownEntry.includes(member)) : knownEntry === entry);

let failures = 0;
const stillKnown = {};
for (const kind of Object.keys(found)) {
  const knownEntries = known[kind] ?? [];
  for (const entry of found[kind]) {
    if (knownEntries.some((knownEntry) => covers(kind, knownEntry, entry))) continue;
    failures += 1;
    process.stdout.write(`error ${described[kind](entry)}\n`);
  }
  stillKnown[kind] = knownEntries.filter((knownEntry) => found[kind].some((entry) => covers(kind, knownEntry, entry)));
  for (const fixed of knownEntries.filter((knownEntry) => !stillKnown[kind].includes(knownEntry))) {
    process.stdout.write(`fixed (no longer found; ${forgetFixed ? 'dropped from' : 'run with --forget-fixed to drop it from'} scripts/structure-known.json): ${described[kind](fixed)}\n`);
  }
}
if (forgetFixed) writeFileSync(knownFile, `${JSON.stringify(stillKnown, null, 2)}\n`);
const knownCount = Object.values(stillKnown).reduce((sum, entries) => sum + entries.length, 0);
process.stdout.write(
  failures === 0
    ? `structure: no new finding (${files.size} files; ${knownCount} known findings listed in scripts/structure-known.json)\n`
    : `structure: ${failures} new finding(s); move the code, rather than adding to scripts/structure-known.json\n`,
);
process.exit(failures === 0 ? 0 : 1);
