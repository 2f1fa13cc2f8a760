/**
 * Readable group ids, shared by a file's decision lines, its report and the Explorer: the file's uid/group id when it has one, else `g<n>` in order of first
 * appearance. Only explicit group keys qualify: a per-record id is never a group.
 */
export function groupIds(rollouts: Iterable<{ group: string }>): Map<string, string> {
  const ids = new Map<string, string>();
  for (const r of rollouts) {
    if (ids.has(r.group)) continue;
    const keyed = /^(uid|group|group_id|prompt_id|problem_id)=(.*)$/s.exec(r.group);
    ids.set(r.group, keyed && !r.group.includes('\u0000') ? keyed[2]! : `g${ids.size + 1}`);
  }
  return ids;
}
