// 每一页的外壳：页头的导航（上一章 · 目录 · 下一章）、正文、页脚再来一遍导航。
// 全是相对链接，整个 site/ 从磁盘上直接打开（file://）就能读，不要服务器，不联网。
import { escapeHtml } from "./markup.ts";

export interface Link {
  href: string; // 相对于站点根目录
  label: string;
  detail?: string; // 跟在 label 后面的标题；手机上省掉
}

export interface Page {
  path: string; // 相对于站点根目录，如 22-mcp-client.html、wire/22-mcp-client/experiment-1.html
  title: string;
  body: string;
  prev?: Link;
  next?: Link;
  up?: Link; // 线路视图回到它那一章
}

// 从 from 页到站点根目录里 target 的相对链接
export function rel(from: string, target: string): string {
  const depth = from.split("/").length - 1;
  return "../".repeat(depth) + target;
}

function nav(p: Page, where: "top" | "bottom"): string {
  const text = (l: Link) => escapeHtml(l.label) + (l.detail ? `<span class="detail"> ${escapeHtml(l.detail)}</span>` : "");
  const link = (l: Link | undefined, cls: string, arrow: (s: string) => string) =>
    l ? `<a class="${cls}" href="${escapeHtml(rel(p.path, l.href))}">${arrow(text(l))}</a>` : `<span class="${cls}"></span>`;
  const middle = [`<a href="${rel(p.path, "index.html")}">目录</a>`];
  if (p.up) middle.push(`<a href="${escapeHtml(rel(p.path, p.up.href))}">${escapeHtml(p.up.label)}</a>`);
  return `<nav class="pager ${where}" aria-label="章节导航">
${link(p.prev, "prev", (s) => `← ${s}`)}
<span class="home">${middle.join(" · ")}</span>
${link(p.next, "next", (s) => `${s} →`)}
</nav>`;
}

export function renderPage(p: Page): string {
  return `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(p.title)} · learnharness</title>
<link rel="stylesheet" href="${rel(p.path, "assets/site.css")}">
</head>
<body>
${nav(p, "top")}
<main>
${p.body}
</main>
${nav(p, "bottom")}
<script>
// 打印时把折起来的提示、声明都展开：纸上没法点开
addEventListener("beforeprint", () => document.querySelectorAll("details").forEach((d) => d.setAttribute("open", "")));
</script>
</body>
</html>
`;
}
