/**
 * The scorer that actually scored a file, for the status bar: `checker` when the chain was
 * `file, else checker` and the file held no scores; `file (40) + checker (32)` when both did.
 * Pure (no `vscode` import).
 */

/** The chain's words for one scorer: a model keeps its label with its provider (`onnx qwen-prm (cpu)`). */
function linkFor(name: string, links: readonly string[]): string {
  if (name === 'file' || name === 'checker') return name;
  const model = links[links.length - 1];
  return model !== undefined && model !== 'file' && model !== 'checker' ? model : name;
}

/** The scorers by how many rollouts each scored (most first), else the chain's label. */
export function scorerInUse(scorers: Readonly<Record<string, number>>, chainLabel: string): string {
  const used = Object.entries(scorers).filter(([, count]) => count > 0).sort((a, b) => b[1] - a[1]);
  const links = chainLabel.split(', else ');
  if (used.length === 0) return chainLabel;
  if (used.length === 1) return linkFor((used[0] as [string, number])[0], links);
  return used.map(([name, count]) => `${linkFor(name, links)} (${count})`).join(' + ');
}
