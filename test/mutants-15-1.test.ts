// 练习 15-1 的变异体：在参考答案上改一处，正是 HINTS.md 提醒过的错（或者任务明说不许的事）。
// 每一个都要被管这件事的那条要求认出来。场景只有一个（compact-now，一次 REPL 加一次 --resume），一个变异体约 2 秒。
// 看不见的：摘要请求被 Ctrl-C 打断或者失败时历史不动（场景里的摘要请求都成功；第 15 章自己的场景管着失败的请求怎么撤回）。
import { requirements } from "../exercises/15-1-compact-now/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

const MUTANTS: Mutant[] = [
  {
    name: "侧重点没有交给摘要请求（任务）",
    file: "main.ts",
    from: "keep: 0, focus, signal",
    to: "keep: 0, signal",
    fails: "摘要请求带着用户交代的侧重点",
    because: /写进摘要请求/,
  },
  {
    name: "/compact 之后没有存（提示 4）：退出时会话文件里还是压缩之前的原文",
    file: "main.ts",
    from: 'if (!done) return console.error("[没有可以压缩的：对话还太短]");\n      saveSession(session, history);',
    to: 'if (!done) return console.error("[没有可以压缩的：对话还太短]");',
    fails: "压缩记进会话文件",
    because: /没有存/,
  },
  {
    name: "像自动压缩一样留下最近 4 条（提示 2）：第二次 /compact 说“太短”",
    file: "main.ts",
    from: "keep: 0, focus",
    to: "keep: 4, focus",
    fails: "/compact 不看阈值",
    because: /最近的 4 条/,
  },
  {
    name: "只比开头几个字（提示 1）：/compaction… 被当成命令",
    file: "main.ts",
    from: "line.match(/^\\/compact(?:\\s+([\\s\\S]*))?$/)",
    to: "line.match(/^\\/compact([\\s\\S]*)$/)",
    fails: "只有 /compact 这个词是命令",
    because: /startsWith/,
  },
  {
    name: "不带侧重点时把 undefined 写进了摘要请求（提示 3）",
    file: "main.ts",
    from: 'compactNow(command[1]?.trim() ?? "")',
    to: "compactNow(String(command[1]?.trim()))",
    fails: "摘要请求带着用户交代的侧重点",
    because: /undefined/,
  },
  {
    name: "没有可总结的也照发摘要请求（任务：太短就只说一句）",
    file: "compact.ts",
    from: "if (split - start < 2) return false;",
    to: "if (split - start < 0) return false;",
    fails: "对话还太短时 /compact 只说一句",
    because: /第一次请求就是摘要请求/,
  },
  {
    name: "/compact 没有拦下来，当成问题发给了模型",
    file: "main.ts",
    from: "if (command) {",
    to: "if (command && false) {",
    fails: "/compact 不看阈值",
    because: /当成问题发给了模型/,
  },
];

mutantSuite("15-1-compact-now", requirements, MUTANTS, 4);
