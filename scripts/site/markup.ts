// 网页里的文字怎么变成 HTML：Markdown 交给 markdown-it，代码着色交给 highlight.js，
// 剩下的（转义、按行切开着好色的代码）是几行自己的代码。
import { createRequire } from "node:module";
import markdownIt, { type MarkdownIt } from "markdown-it";

// highlight.js 的类型声明带着 /// <reference lib="dom" />，一 import 就把 DOM 的类型灌进整个项目
// （各章的 fetch、ReadableStream 随之变了样，tsc 报一片错）。所以用 require 取它，只声明用到的那几个方法
interface Highlighter {
  registerLanguage(name: string, language: unknown): void;
  registerAliases(aliases: string[], opts: { languageName: string }): void;
  getLanguage(name: string): unknown;
  highlight(code: string, opts: { language: string; ignoreIllegals: boolean }): { value: string };
}
const require = createRequire(import.meta.url);
const hljs: Highlighter = require("highlight.js/lib/core");
// 只注册用得到的几种语言：整套 highlight.js 要多花半秒加载
for (const lang of ["typescript", "json", "bash", "markdown"]) hljs.registerLanguage(lang, require(`highlight.js/lib/languages/${lang}`));
hljs.registerAliases(["ts"], { languageName: "typescript" });
hljs.registerAliases(["sh", "shell"], { languageName: "bash" });

export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

export function languageOf(file: string): string | undefined {
  const ext = file.split(".").pop();
  return ext === "ts" ? "typescript" : ext === "json" ? "json" : ext === "sh" ? "bash" : ext === "md" ? "markdown" : undefined;
}

export function highlight(code: string, lang: string | undefined): string {
  return lang && hljs.getLanguage(lang) ? hljs.highlight(code, { language: lang, ignoreIllegals: true }).value : escapeHtml(code);
}

// 整个文件一起着色（跨行的注释、模板字符串才不会错），再按行切开：跨行的 <span> 在行尾关上、下一行开头重新打开，
// diff 才能一行一行地摆
export function highlightLines(code: string, lang: string | undefined): string[] {
  const out: string[] = [];
  const open: string[] = [];
  let line = "";
  for (const part of highlight(code, lang).split(/(<span[^>]*>|<\/span>|\n)/)) {
    if (part === "\n") {
      out.push(line + "</span>".repeat(open.length));
      line = open.join("");
    } else if (part.startsWith("<span")) {
      open.push(part);
      line += part;
    } else if (part === "</span>") {
      open.pop();
      line += part;
    } else line += part;
  }
  out.push(line + "</span>".repeat(open.length));
  return out;
}

export function codeBlock(code: string, lang?: string, cls = ""): string {
  return `<pre class="code ${cls}"><code class="hljs${lang ? ` language-${lang}` : ""}">${highlight(code, lang)}</code></pre>`;
}

const md: MarkdownIt = markdownIt({
  html: true, // 提示用 <details> 折起来；README 里有 <!-- transcript: … --> 注释
  highlight: (code, lang) => codeBlock(code.replace(/\n$/, ""), hljs.getLanguage(lang) ? lang : undefined),
});

// 行内代码绝不在词中间断开：浏览器本来会在 2024-11-05 的连字符后面折行。所以把它切成不许折行的几段（nowrap），
// 段与段之间才能折：空格处，长的那些再加上 / ( , 之后、成员访问的 . 之前——标识符本身完整，手机上也不会把整页撑宽
export function inlineCode(code: string): string {
  const cut = code.length > 24
    ? code.replace(/([/(,])(?=[^/)\s])/g, "$1\0").replace(/(?<=\w)\.(?=[A-Za-z_]\w{4})/g, "\0.") // main.ts 的 .ts 不拆
    : code;
  // 汉字照中文的规矩折行（句号、逗号不到行首），不放进不许折的段里
  const parts = cut.split(/(\s+|\0|[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]+)/).filter((p) => p !== "");
  const free = (p: string) => /^\s+$|^[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/.test(p);
  const piece = (p: string) => (p === "\0" ? "<wbr>" : free(p) ? escapeHtml(p) : `<span class="nw">${escapeHtml(p)}</span>`);
  if (parts.length === 1 && parts[0] === code && !free(code)) return `<code class="nw">${escapeHtml(code)}</code>`;
  return `<code>${parts.map(piece).join("")}</code>`;
}
md.renderer.rules.code_inline = (tokens, i) => inlineCode(tokens[i].content);

// 表格在窄屏上自己横着滚，不撑宽整页
md.renderer.rules.table_open = () => `<div class="scroll"><table>\n`;
md.renderer.rules.table_close = () => `</table></div>\n`;

// 二级、三级标题带上 id（就用标题文字），目录和跨页链接才指得过去
md.renderer.rules.heading_open = (tokens, i, options, _env, self) => {
  const inline = tokens[i + 1];
  if (tokens[i].tag !== "h1" && inline?.type === "inline") tokens[i].attrSet("id", slug(inline.content));
  return self.renderToken(tokens, i, options);
};

export function slug(text: string): string {
  return text.trim().replace(/[`*]/g, "").replace(/\s+/g, "-");
}

export function renderMarkdown(text: string): string {
  return md.render(text);
}

// 转录里几类行各有颜色：日志行（[...]）淡一些，警告、错误醒目，其余是模型的回答
export function transcriptBlock(text: string): string {
  const lines = text.replace(/\n$/, "").split("\n").map((line) => {
    const cls = /^\s*错误[:：]/.test(line) ? "t-err" : /^\s*警告[:：]/.test(line) ? "t-warn" : /^\[/.test(line) ? "t-log" : /^\$ /.test(line) ? "t-cmd" : "";
    return cls ? `<span class="${cls}">${escapeHtml(line)}</span>` : escapeHtml(line);
  });
  return `<pre class="code transcript"><code>${lines.join("\n")}</code></pre>`;
}
