/**
 * Files that hold rollouts in a binary form PROF Lens does not read as text: a PyTorch
 * `torch.save` file (slime saves its rollouts so), an Arrow file (a Hugging Face dataset's cache),
 * safetensors, or any file with NUL bytes where text should be (a JSON Lines file whose first line
 * is whole and NULs come after it is text with a damaged part, read as lines). One message says what the file
 * is and how to turn it into JSON Lines; its bytes are never read as lines (which would make one
 * error per line of noise). Parquet is read (TRL's completions) and is not in this list.
 */
import { bomLength } from './jsonLines';
import { LineBreakScanner } from './lineBreaks';

/** The binary kinds PROF Lens names. */
export type BinaryKind = 'torch' | 'pickle' | 'arrow' | 'safetensors' | 'numpy' | 'binary';

/** How many leading bytes the check looks at. */
export const BINARY_SNIFF_BYTES = 4096;

function startsWith(bytes: Uint8Array, text: string, at = 0): boolean {
  if (bytes.length < at + text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
  return true;
}

/** A safetensors file: an 8-byte little-endian header length, then the JSON header `{"…`. */
function isSafetensors(bytes: Uint8Array): boolean {
  return bytes.length >= 10 && bytes[8] === 0x7b && (bytes[9] === 0x22 || bytes[9] === 0x20) && bytes[5] === 0 && bytes[6] === 0 && bytes[7] === 0;
}

/** The binary kind of a file from its first bytes and its name, or null for text (or parquet). */
export function binaryKindOf(bytes: Uint8Array, fileName: string): BinaryKind | null {
  const name = fileName.toLowerCase();
  if (startsWith(bytes, 'PAR1')) return null;
  // torch.save writes a zip archive; other zips (.zip, .vsix, office files) are only binary.
  if (startsWith(bytes, 'PK\u0003\u0004')) return /\.(zip|vsix|jar|docx|xlsx|pptx)$/.test(name) ? 'binary' : 'torch';
  if (bytes[0] === 0x80 && bytes.length > 1 && (bytes[1] as number) >= 2 && (bytes[1] as number) <= 5) return /\.(pkl|pickle)$/.test(name) ? 'pickle' : 'torch';
  if (startsWith(bytes, 'ARROW1') || (bytes[0] === 0xff && bytes[1] === 0xff && bytes[2] === 0xff && bytes[3] === 0xff) || name.endsWith('.arrow')) return 'arrow';
  if (name.endsWith('.safetensors') || isSafetensors(bytes)) return 'safetensors';
  if (startsWith(bytes, '\u0093NUMPY')) return 'numpy';
  if (/\.(pt|pth|ckpt)$/.test(name)) return 'torch';
  const nul = bytes.subarray(0, BINARY_SNIFF_BYTES).indexOf(0);
  return nul === -1 || opensWithJsonLine(bytes, nul) ? null : 'binary';
}

/**
 * Whether the bytes before the first NUL hold a whole line that opens like JSON: JSON Lines with a
 * damaged part (a crashed writer's NUL-filled tail), whose good lines are read and whose damaged
 * lines are named — not a binary file.
 */
function opensWithJsonLine(bytes: Uint8Array, nul: number): boolean {
  const lineEnd = new LineBreakScanner(bytes.subarray(0, nul)).find(0)?.end;
  if (lineEnd === undefined) return false;
  let at = bomLength(bytes);
  while (at < lineEnd && (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0d)) at++;
  return bytes[at] === 0x7b || bytes[at] === 0x5b;
}

/** What the file is and how to make JSON Lines of it, in one message. */
export function binaryMessage(kind: BinaryKind, fileName: string): string {
  switch (kind) {
    case 'torch':
      return `${fileName} is a PyTorch file (torch.save; slime saves its rollouts this way with --save-debug-rollout-data), not text. `
        + 'Convert it to JSON Lines, one sample per line, and open that: '
        + `python -c "import json,sys,torch; d=torch.load(sys.argv[1], weights_only=False); [print(json.dumps(s, default=str)) for s in (d['samples'] if isinstance(d, dict) and 'samples' in d else d)]" ${fileName} > rollouts.jsonl`;
    case 'pickle':
      return `${fileName} is a Python pickle, not text. Convert it to JSON Lines and open that: python -c "import json,pickle,sys; [print(json.dumps(s, default=str)) for s in pickle.load(open(sys.argv[1], 'rb'))]" ${fileName} > rollouts.jsonl`;
    case 'arrow':
      return `${fileName} is an Arrow file (a Hugging Face dataset's cache), not text. Convert it to JSON Lines and open that: python -c "import sys,datasets; datasets.Dataset.from_file(sys.argv[1]).to_json('rollouts.jsonl')" ${fileName}`;
    case 'safetensors':
      return `${fileName} is a safetensors file (model weights or tensors), not rollouts: PROF Lens reads rollouts from JSON Lines, JSON or parquet.`;
    case 'numpy':
      return `${fileName} is a NumPy array file, not rollouts: PROF Lens reads rollouts from JSON Lines, JSON or parquet.`;
    default:
      return `${fileName} is a binary file (it has NUL bytes where text would have none): PROF Lens reads rollouts from JSON Lines, JSON or parquet.`;
  }
}
