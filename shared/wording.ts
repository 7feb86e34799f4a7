// 模型看得见的措辞：每一份 system prompt、每个工具的描述和参数的描述，从脚本模型收到的请求体里取。
// 两处用它：test/readme-wording.ts（在 test/all-transcripts.test.ts 里）要求每章 README 一字不差地给出这一章新加、改过的措辞；
// verify 检查读者的副本时，token 数跟着措辞变，它把副本和书上这一章的请求放在一起比，说清差在哪一句。

import { tempRoot } from "./scenario.ts";

// 标签 → 文字，按第一次出现的顺序。标签是给读者看的：“system prompt”“sub_agent 的描述”“bash 的参数 command 的描述”
export function wordingOf(bodies: any[]): Map<string, string> {
  const out = new Map<string, string>();
  const systems: string[] = [];
  for (const body of bodies) {
    for (const m of body?.messages ?? []) {
      if (m?.role === "system" && typeof m.content === "string" && !systems.includes(m.content)) systems.push(m.content);
    }
    for (const t of body?.tools ?? []) {
      const f = t?.function ?? t;
      const name = String(f?.name);
      if (out.has(`${name} 的描述`)) continue;
      out.set(`${name} 的描述`, String(f?.description ?? ""));
      parameters(name, "", f?.parameters, out);
    }
  }
  // 第一份是主 agent 的；后面的（子 agent 的、压缩时那次摘要请求的）按出现的先后编号
  systems.forEach((text, i) => out.set(i === 0 ? "system prompt" : `第 ${i + 1} 份 system prompt`, text));
  return out;
}

// 参数描述，连同嵌套的（workflow 的 steps[].task）
function parameters(tool: string, prefix: string, schema: any, out: Map<string, string>) {
  for (const [key, value] of Object.entries<any>(schema?.properties ?? {})) {
    const name = prefix + key;
    if (typeof value?.description === "string") out.set(`${tool} 的参数 ${name} 的描述`, value.description);
    parameters(tool, `${name}.`, value, out);
    parameters(tool, `${name}[].`, value?.items, out);
  }
}

// 副本的措辞和书上的差在哪：每处一句，比如“sub_agent 的描述比书上多 5 个字：书上 “…”，你的 “…””。措辞一样就是空数组
export function wordingNotes(book: any[], copy: any[]): string[] {
  const ours = wordingOf(book.map(withoutTmp));
  const theirs = wordingOf(copy.map(withoutTmp));
  const notes: string[] = [];
  for (const [label, text] of ours) {
    const other = theirs.get(label);
    if (other === undefined) notes.push(`书上的请求里有 ${label}，你的没有`);
    else if (other !== text) notes.push(label.endsWith("system prompt") ? linesDiffer(label, text, other) : differ(label, text, other));
  }
  for (const label of theirs.keys()) if (!ours.has(label)) notes.push(`你的请求里多了 ${label}：${excerpt(theirs.get(label)!, 0)}`);
  // 描述都一样，声明的 JSON 却不同：字段的顺序、多了少了字段，也都算在 token 里
  const declared = specs(book);
  for (const [name, spec] of specs(copy)) {
    if (notes.length === 0 && declared.has(name) && declared.get(name) !== spec) notes.push(`${name} 的声明写法和书上不同（描述都一样：是字段的顺序，或者多了少了字段）`);
  }
  return notes;
}

// 每个工具第一次出现时的声明（JSON）。只按名字比：哪次请求带了哪几个工具是行为，不是措辞
function specs(bodies: any[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const t of bodies.flatMap((b) => b?.tools ?? [])) {
    const name = String((t?.function ?? t)?.name);
    if (!out.has(name)) out.set(name, JSON.stringify(t));
  }
  return out;
}

// system prompt 按行比：说的是第几行
function linesDiffer(label: string, ours: string, theirs: string): string {
  const a = ours.split("\n");
  const b = theirs.split("\n");
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (i === a.length) return `${label} 比书上多了第 ${i + 1} 行起的 ${b.length - a.length} 行：${excerpt(b[i], 0)}`;
  if (i === b.length) return `${label} 比书上少了第 ${i + 1} 行起的 ${a.length - b.length} 行：书上是 ${excerpt(a[i], 0)}`;
  return differ(`${label} 的第 ${i + 1} 行`, a[i], b[i]);
}

function differ(label: string, ours: string, theirs: string): string {
  const a = [...ours];
  const b = [...theirs];
  let c = 0;
  while (c < a.length && c < b.length && a[c] === b[c]) c++;
  const n = b.length - a.length;
  const size = n > 0 ? `比书上多 ${n} 个字` : n < 0 ? `比书上少 ${-n} 个字` : "和书上一样长、措辞不同";
  return `${label}${size}：书上 ${excerpt(ours, c)}，你的 ${excerpt(theirs, c)}`;
}

// 从第一处不同往前留一点上下文，最多 40 个字
function excerpt(text: string, at: number): string {
  const chars = [...text];
  const from = Math.max(0, at - 10);
  const shown = chars.slice(from, from + 40).join("");
  return `“${from > 0 ? "…" : ""}${shown}${from + 40 < chars.length ? "…" : ""}”`;
}

// 措辞都一样、数字还是不同时：第一处不同的请求内容（工具结果、历史里的消息）
export function firstRequestDifference(book: any[], copy: any[]): string | undefined {
  [book, copy] = [book.map(withoutTmp), copy.map(withoutTmp)];
  const text = (m: any) => (typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? null)) + JSON.stringify(m?.tool_calls ?? "");
  const names = (body: any) => (body?.tools ?? []).map((t: any) => (t?.function ?? t)?.name).join("、");
  for (let i = 0; i < Math.max(book.length, copy.length); i++) {
    if (names(book[i]) !== names(copy[i])) return `第 ${i + 1} 次请求带的工具和书上不同：书上 ${names(book[i]) || "（没有）"}，你的 ${names(copy[i]) || "（没有）"}`;
    const a: any[] = book[i]?.messages ?? [];
    const b: any[] = copy[i]?.messages ?? [];
    for (let j = 0; j < Math.max(a.length, b.length); j++) {
      if (a[j]?.role === b[j]?.role && text(a[j]) === text(b[j])) continue;
      const role = b[j]?.role ?? a[j]?.role;
      if (!a[j] || !b[j]) return `第 ${i + 1} 次请求的消息条数和书上不同（书上 ${a.length} 条，你的 ${b.length} 条）`;
      return differ(`第 ${i + 1} 次请求的第 ${j + 1} 条消息（${role}）`, text(a[j]), text(b[j]));
    }
  }
  return undefined;
}

// 两次运行的临时目录（工作目录就在里面）不同，system prompt 里的“工作目录：…”不算措辞的差别
const TMP = new RegExp(tempRoot().replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "/lh-[^/\"\\s]+", "g");
function withoutTmp(body: any): any {
  return JSON.parse(JSON.stringify(body ?? null).replace(TMP, "$$TMP"));
}
