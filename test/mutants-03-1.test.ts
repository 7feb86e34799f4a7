// 练习 03-1 的变异体：在参考答案的 model.ts 上改一处，正是 README 的任务或 HINTS.md 提醒过的错。
// 检查器必须认出每一个，而且是管这件事的那条要求不通过（做法和 test/mutants.test.ts 一样）。
// 让 harness 卡住的几个（不掐断、从响应头才开始数、单位当成秒、不清计时器）由场景的时限（20 秒）判出来，说明里是“撞上了场景的时限”，
// 它们的要求自己的说明也点名了原因；几个一起起跑，卡住时只是干等，不占 CPU。
// 没有变异体的几条，为什么：
// - “已经印出的字留着”：答案里没有一处改了会把印出的字收回去（边收边印是第 03 章的），要把回答攒到最后才印得另写；
//   stall-mid-stream 仍然查前半句在不在。
// - “退出码非 0”：错误是 ModelError，main.ts 原样设退出码 1；改成别的错会带着堆栈倒下，那是崩溃不是这个练习的错。
// - “写错了是配置错（退出码 2）”：检查器不查，README 也只是顺带一句；哪个场景都不会把它设错。
// - 几问共用一只看门狗（REPL 里第一问掐断以后第二问一开始就是 aborted）：答案里的看门狗是每问一只，改成共用不止一处；
//   stall-before-first-byte 的第二问照常要答完，就是查它的。
import { requirements } from "../exercises/03-1-stall-timeout/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

const TIMED_OUT = /撞上了场景的时限/;

const MUTANTS: Mutant[] = [
  {
    name: "到点只抛错、不把 signal 交给 fetch（任务：掐断这次请求）：连接开着，谁也不知道要停",
    file: "model.ts",
    from: "body: JSON.stringify(body), signal }",
    to: "body: JSON.stringify(body) }",
    fails: "流停在半路",
    because: TIMED_OUT,
  },
  {
    name: "收到第一块字节才开始数（提示 2）：连响应头都没有的请求永远等下去",
    file: "model.ts",
    from: /(?<=\};\n)  kick\(\);\n/,
    to: "",
    fails: "一个字节都还没来",
    because: TIMED_OUT,
  },
  {
    name: "计时器从不从头数（任务：收到任何一块字节就从头数）：慢的流被拦腰斩断",
    file: "model.ts",
    from: "      kick();\n      pass.enqueue(chunk);",
    to: "      pass.enqueue(chunk);",
    fails: "慢而不停的流不是停住",
    because: /一次也没从头数/,
  },
  {
    name: "整次请求一个时限（提示 1）：重置时不清掉旧的计时器，第一只照样按时咬人",
    file: "model.ts",
    from: "    clearTimeout(timer);\n    timer = setTimeout",
    to: "    timer = setTimeout",
    fails: "慢而不停的流不是停住",
    because: /整次请求的时限/,
  },
  {
    name: "在读出 data: 事件时才从头数（提示 2）：只发注释行的那几秒被当成停住",
    file: "model.ts",
    from: "readSSE(res.body!.pipeThrough(kicking(dog.kick)))) {",
    to: "readSSE(res.body!)) { dog.kick();",
    fails: "SSE 注释行也是字节",
    because: /注释行不会变成事件/,
  },
  {
    name: "请求结束时不清计时器（提示 3）：答完了还要陪它等满默认的两分钟",
    file: "model.ts",
    from: "dog.stop();",
    to: "",
    fails: "没设 HARNESS_STALL_MS 用宽松的默认值",
    because: TIMED_OUT,
  },
  {
    name: "默认值太短（任务：别定得太短）：2 秒的默认值把 3 秒的长考当成停住",
    file: "model.ts",
    from: "DEFAULT_STALL_MS = 120_000",
    to: "DEFAULT_STALL_MS = 2_000",
    fails: "没设 HARNESS_STALL_MS 用宽松的默认值",
    because: /默认值太短/,
  },
  {
    name: "HARNESS_STALL_MS 当成秒读（写给读者的单位是毫秒）：2000 秒的看门狗等于没有",
    file: "model.ts",
    from: "const ms = Number(raw);",
    to: "const ms = Number(raw) * 1000;",
    fails: "流停在半路",
    because: TIMED_OUT,
  },
  {
    name: "掐断以后照转 fetch、读流自己的错（提示 3）：说的是“连接断了”，不是停住",
    file: "model.ts",
    from: "if (dog.signal.aborted) throw",
    to: "if (!dog.signal) throw",
    fails: "流停在半路",
    because: /流停住了/,
  },
  {
    name: "错误里把毫秒当成秒（提示 3）：“2000 秒”",
    file: "model.ts",
    from: "${config.stallMs / 1000} 秒",
    to: "${config.stallMs} 秒",
    fails: "流停在半路",
    because: /停了多久/,
  },
];

mutantSuite("03-1-stall-timeout", requirements, MUTANTS, 5);
