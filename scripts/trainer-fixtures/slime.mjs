// slime saves its rollouts with `torch.save({"rollout_id": …, "samples": [Sample.to_dict() …]}, path)`
// (slime/observability/rollout_data_utils.py `save_debug_rollout_data`). A torch.save file is a
// zip archive (`<name>/data.pkl`, `<name>/version`, `<name>/byteorder`); PROF Lens only has to
// recognise one, so the archive here is laid out that way around a placeholder pickle (no torch
// on this machine to write a real one). Beside it: the JSON Lines the conversion recipe in
// docs/trainer-dumps.md prints, which PROF Lens reads as slime samples.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { OUT, problem, pyDumps, QWEN_SYSTEM } from './gsm8k.mjs';

/** A zip archive of stored (uncompressed) entries. */
function storedZip(entries) {
  const locals = [];
  const directory = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const nameBytes = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    locals.push(local, nameBytes, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    directory.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const size = directory.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...directory, end]);
}

export function writeSlime() {
  const dir = join(OUT, 'slime');
  mkdirSync(dir, { recursive: true });
  // Protocol-2 pickle opcodes for an empty dict, then STOP: a placeholder, not slime's samples.
  const pickle = Buffer.from([0x80, 0x02, 0x7d, 0x71, 0x00, 0x2e]);
  writeFileSync(join(dir, 'rollout_0.pt'), storedZip([['rollout_0/data.pkl', pickle], ['rollout_0/byteorder', Buffer.from('little')], ['rollout_0/version', Buffer.from('3\n')]]));
  const samples = [];
  [0, 1].forEach((index, group) => {
    const p = problem(index);
    p.responses.forEach((r, i) => {
      samples.push({
        group_index: group,
        index: group * 4 + i,
        prompt: `<|im_start|>system\n${QWEN_SYSTEM}<|im_end|>\n<|im_start|>user\n${p.question}<|im_end|>\n<|im_start|>assistant\n`,
        response: r.text,
        label: p.gold,
        reward: r.isCorrect ? 1.0 : 0.0,
        status: 'completed',
      });
    });
  });
  writeFileSync(join(dir, 'rollout_0.jsonl'), samples.map((s) => pyDumps(s, { floatKeys: new Set(['reward']) })).join('\n') + '\n');
}
