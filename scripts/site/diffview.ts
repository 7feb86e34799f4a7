// 两棵目录树之间的 diff，一个文件一段：删掉的行红、加上的行绿，新文件整个显示。
// 比对交给 diff 包（jsdiff），着色整文件做一次再按行切，跨行的注释也不会着错色。
import fs from "node:fs";
import path from "node:path";
import { structuredPatch } from "diff";
import { escapeHtml, highlightLines, languageOf } from "./markup.ts";

export interface FileDiff {
  path: string; // 相对于目录树根，用 / 分隔
  status: "added" | "removed" | "changed";
  added: number;
  removed: number;
  html: string;
}

export interface TreeDiff {
  files: FileDiff[];
  unchanged: number; // 逐字节相同、没有列出来的文件数
}

const IGNORED = new Set(["node_modules", ".harness", ".DS_Store"]);

function listFiles(dir: string, base = ""): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (IGNORED.has(e.name)) return [];
    const rel = base ? `${base}/${e.name}` : e.name;
    return e.isDirectory() ? listFiles(path.join(dir, e.name), rel) : e.isFile() ? [rel] : [];
  });
}

export function anchorOf(file: string): string {
  return `diff-${file}`;
}

// from 为 undefined：第一章，全部是新文件
export function diffTrees(from: string | undefined, to: string, skip: (file: string) => boolean = () => false): TreeDiff {
  const names = [...new Set([...(from ? listFiles(from) : []), ...listFiles(to)])].filter((f) => !skip(f)).sort();
  const files: FileDiff[] = [];
  let unchanged = 0;
  for (const name of names) {
    const a = from && fs.existsSync(path.join(from, name)) ? fs.readFileSync(path.join(from, name), "utf8") : undefined;
    const b = fs.existsSync(path.join(to, name)) ? fs.readFileSync(path.join(to, name), "utf8") : undefined;
    if (a === b) {
      unchanged++;
      continue;
    }
    files.push(fileDiff(name, a, b));
  }
  return { files, unchanged };
}

function fileDiff(name: string, a: string | undefined, b: string | undefined): FileDiff {
  const status = a === undefined ? "added" : b === undefined ? "removed" : "changed";
  const patch = structuredPatch(name, name, a ?? "", b ?? "", "", "", { context: 3 });
  const lang = languageOf(name);
  const oldLines = highlightLines(a ?? "", lang);
  const newLines = highlightLines(b ?? "", lang);
  let added = 0;
  let removed = 0;
  const rows: string[] = [];
  for (const hunk of patch.hunks) {
    if (status === "changed") rows.push(`<tr class="hunk"><td class="ln"></td><td class="ln"></td><td class="src">@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@</td></tr>`);
    let o = hunk.oldStart;
    let n = hunk.newStart;
    for (const line of hunk.lines) {
      const sign = line[0];
      if (sign === "\\") continue; // “文件末尾没有换行”的说明，不是内容
      if (sign === "+") {
        added++;
        rows.push(row("add", "", String(n), newLines[n - 1]));
        n++;
      } else if (sign === "-") {
        removed++;
        rows.push(row("del", String(o), "", oldLines[o - 1]));
        o++;
      } else {
        rows.push(row("ctx", String(o), String(n), newLines[n - 1]));
        o++;
        n++;
      }
    }
  }
  const badge = status === "added" ? ` <span class="badge new">新增</span>` : status === "removed" ? ` <span class="badge gone">删除</span>` : "";
  const id = escapeHtml(anchorOf(name));
  const html = `<section class="file" id="${id}">
<h3 class="file-name"><a href="#${id}"><code class="nw">${escapeHtml(name)}</code></a>${badge} <span class="stat"><span class="plus">+${added}</span> <span class="minus">−${removed}</span></span></h3>
<div class="scroll"><table class="diff ${status}"><tbody>
${rows.join("\n")}
</tbody></table></div>
</section>`;
  return { path: name, status, added, removed, html };
}

function row(kind: string, oldNo: string, newNo: string, code: string | undefined): string {
  const sign = kind === "add" ? "+" : kind === "del" ? "−" : " ";
  return `<tr class="${kind}"><td class="ln" data-n="${oldNo}"></td><td class="ln" data-n="${newNo}"></td><td class="src"><span class="sign">${sign}</span>${code ?? ""}</td></tr>`;
}

// 文件一览（每个文件链到自己那一段）加上各段
export function renderTreeDiff(d: TreeDiff, sameAs: string): string {
  if (d.files.length === 0) return `<p>和${escapeHtml(sameAs)}逐字节相同。</p>`;
  const items = d.files.map((f) => {
    const badge = f.status === "added" ? `<span class="badge new">新增</span>` : f.status === "removed" ? `<span class="badge gone">删除</span>` : "";
    return `<li><a href="#${escapeHtml(anchorOf(f.path))}"><code class="nw">${escapeHtml(f.path)}</code></a> ${badge} <span class="stat"><span class="plus">+${f.added}</span> <span class="minus">−${f.removed}</span></span></li>`;
  });
  const rest = d.unchanged > 0 ? `<p class="note">其余 ${d.unchanged} 个文件和${escapeHtml(sameAs)}逐字节相同。</p>` : "";
  return `<ul class="file-list">${items.join("")}</ul>\n${rest}\n${d.files.map((f) => f.html).join("\n")}`;
}
