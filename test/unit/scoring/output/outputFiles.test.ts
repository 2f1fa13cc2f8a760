import { link, mkdtemp, readdir, readFile, readlink, rm, stat, chmod, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkOutputs, openAtomicWriter, OutputAliasError, writeFileAtomic } from '../../../../src/scoring/output/outputFiles';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'prof-lens-write-'));
  dirs.push(dir);
  return dir;
}

describe('atomic writer', () => {
  it('replaces the target only on commit, keeping its permissions', async () => {
    const dir = await tempDir();
    const target = join(dir, 'scored.jsonl');
    await writeFile(target, 'old\n');
    await chmod(target, 0o640);
    const writer = await openAtomicWriter(target);
    const big = 'x'.repeat(700_000);
    await writer.write(`${big}\n`);
    await writer.write(`${big}\n`);
    await writer.write('end\n');
    expect(await readFile(target, 'utf8')).toBe('old\n');
    await writer.commit();
    expect(await readFile(target, 'utf8')).toBe(`${big}\n${big}\nend\n`);
    expect((await stat(target)).mode & 0o777).toBe(0o640);
    expect(await readdir(dir)).toEqual(['scored.jsonl']);
  });

  it('leaves the target and no temporary file behind on abort', async () => {
    const dir = await tempDir();
    const target = join(dir, 'out.jsonl');
    await writeFile(target, 'keep me\n');
    const writer = await openAtomicWriter(target);
    await writer.write('half of it');
    await writer.abort();
    await writer.abort();
    expect(await readFile(target, 'utf8')).toBe('keep me\n');
    expect(await readdir(dir)).toEqual(['out.jsonl']);
  });

  it('writes a whole file in one call', async () => {
    const dir = await tempDir();
    await writeFileAtomic(join(dir, 'a.jsonl'), '{"a":1}\n');
    expect(await readFile(join(dir, 'a.jsonl'), 'utf8')).toBe('{"a":1}\n');
  });

  it('writes bytes as they are, mixed with text', async () => {
    const dir = await tempDir();
    const target = join(dir, 'kept.jsonl');
    await writeFileAtomic(target, new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d, 0x0d, 0x0a]));
    expect([...(await readFile(target))]).toEqual([0xef, 0xbb, 0xbf, 0x7b, 0x7d, 0x0d, 0x0a]);
  });

  it('writes pieces in order, text and bytes and pieces over its buffer, and keeps bytes the caller then reuses', async () => {
    const dir = await tempDir();
    const target = join(dir, 'mixed.jsonl');
    const writer = await openAtomicWriter(target);
    const expected: Buffer[] = [];
    const reused = Buffer.alloc(5000);
    for (let i = 0; i < 3000; i++) {
      const text = i % 7 === 0 ? `é😀${'x'.repeat(i)}\n` : `{"i":${i}}\n`;
      await writer.write(text);
      expected.push(Buffer.from(text));
      // The same buffer refilled for every line, as a reader's view of its read buffer is.
      reused.fill(i % 251, 0, 1000 + (i % 3000));
      await writer.write(reused.subarray(0, 1000 + (i % 3000)));
      expected.push(Buffer.from(reused.subarray(0, 1000 + (i % 3000))));
      if (i % 1000 === 999) {
        const large = Buffer.alloc(1.5 * 1024 * 1024, i % 256);
        await writer.write(large);
        expected.push(large);
        const long = 'ü'.repeat(400_000);
        await writer.write(long);
        expected.push(Buffer.from(long));
      }
    }
    await writer.commit();
    expect((await readFile(target)).equals(Buffer.concat(expected))).toBe(true);
  });

  it('through a symlink, replaces the file it points to and keeps the link', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'real.jsonl'), 'old\n');
    await symlink('real.jsonl', join(dir, 'link.jsonl'));
    await writeFileAtomic(join(dir, 'link.jsonl'), 'new\n');
    expect(await readlink(join(dir, 'link.jsonl'))).toBe('real.jsonl');
    expect(await readFile(join(dir, 'real.jsonl'), 'utf8')).toBe('new\n');
  });

  it('writes straight into something that is not a regular file (a pipe, /dev/null)', async () => {
    await writeFileAtomic('/dev/null', 'discarded\n');
    expect((await stat('/dev/null')).isCharacterDevice()).toBe(true);
  });
});

describe('outputs never alias inputs', () => {
  async function files(): Promise<{ dir: string; input: string }> {
    const dir = await tempDir();
    const input = join(dir, 'in.jsonl');
    await writeFile(input, '{"prompt":"p","response":"r"}\n');
    return { dir, input };
  }
  const refused = (promise: Promise<void>): Promise<unknown> => expect(promise).rejects.toBeInstanceOf(OutputAliasError);

  it('the same path, however it is written, is refused', async () => {
    const { dir, input } = await files();
    await refused(checkOutputs([{ label: 'the input', path: input }], [{ label: '-o', path: join(dir, '.', 'sub', '..', 'in.jsonl') }]));
  });

  it('a symlink to the input is refused, naming the link and the file', async () => {
    const { dir, input } = await files();
    await symlink(input, join(dir, 'link.jsonl'));
    await expect(checkOutputs([{ label: 'the input', path: input }], [{ label: '-o', path: join(dir, 'link.jsonl') }]))
      .rejects.toThrow(/-o .*link\.jsonl is the same file as the input .*in\.jsonl \(through a symbolic link/);
  });

  it('a hard link to the input is refused', async () => {
    const { dir, input } = await files();
    await link(input, join(dir, 'hard.jsonl'));
    await expect(checkOutputs([{ label: 'the input', path: input }], [{ label: '--decisions', path: join(dir, 'hard.jsonl') }]))
      .rejects.toThrow(/a hard link to it/);
  });

  it('an input reached through a symlinked folder is refused', async () => {
    const { dir, input } = await files();
    await symlink(dir, join(dir, 'again'));
    await refused(checkOutputs([{ label: 'the input', path: join(dir, 'again', 'in.jsonl') }], [{ label: '-o', path: input }]));
  });

  it('two outputs that are one file are refused, even before either exists (a dangling link)', async () => {
    const { dir, input } = await files();
    await symlink('kept.jsonl', join(dir, 'decisions.jsonl'));
    await expect(checkOutputs([{ label: 'the input', path: input }], [
      { label: '-o', path: join(dir, 'kept.jsonl') },
      { label: '--decisions', path: join(dir, 'decisions.jsonl') },
    ])).rejects.toThrow(/--decisions .* is the same file as -o/);
  });

  it('distinct files pass', async () => {
    const { dir, input } = await files();
    await writeFile(join(dir, 'old-kept.jsonl'), 'x');
    await checkOutputs([{ label: 'the input', path: input }], [
      { label: '-o', path: join(dir, 'old-kept.jsonl') },
      { label: '--decisions', path: join(dir, 'new.jsonl') },
    ]);
  });

  it('a symlink loop is a clear error, not a hang', async () => {
    const { dir, input } = await files();
    await symlink('b', join(dir, 'a'));
    await symlink('a', join(dir, 'b'));
    await expect(checkOutputs([{ label: 'the input', path: input }], [{ label: '-o', path: join(dir, 'a') }])).rejects.toThrow(/too many symbolic links/);
  });
});
