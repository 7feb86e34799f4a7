// 练习 14-1 的变异体：在参考答案上改一处，正是 HINTS.md 提醒过的错（或者任务明说不许的事）。
// 检查器必须认出每一个，而且是管这件事的那条要求不通过。
import { requirements } from "../exercises/14-1-whole-output-kept/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

// 不能由哪个场景看出来的几处，为什么：
// - 存的目录被换成符号链接时不往里写（lstat 再看一眼）、文件用 O_EXCL|O_NOFOLLOW 建：要在 harness 建目录和写文件之间抢先换掉它，
//   两个进程赛跑，检查器不比快慢。
// - --resume 接着聊时认得上次存下的那几份、接着编号：要多跑一次 harness，检查器的预算里放不下；unsaved 场景已经跑了两次。
const MUTANTS: Mutant[] = [
  {
    name: "存在工作目录里（任务：存在会话的地方）",
    file: "main.ts",
    from: "new SavedOutputs(path.join(path.dirname(session.file), session.id))",
    to: 'new SavedOutputs(path.join(process.cwd(), ".harness-outputs"))',
    fails: "超出预算的结果",
    because: /不在工作目录里/,
  },
  {
    name: "路径不告诉模型（任务）：模型只拿到头尾，读不回来",
    file: "agent.ts",
    from: "原样存在 ${file} ；",
    to: "已经原样存好；",
    fails: "超出预算的结果",
    because: /以 \.txt 结尾的绝对路径/,
  },
  {
    name: "大小不说（任务：路径和大小）",
    file: "agent.ts",
    from: "[完整的结果有 ${Buffer.byteLength(result)} 字节，",
    to: "[完整的结果",
    fails: "超出预算的结果",
    because: /有多大/,
  },
  {
    name: "读回存下的那份照样过预算（提示 3）：模型又只拿到头尾",
    file: "agent.ts",
    from: 'if (call.function.name === "read_file" && opts.outputs?.has(pathOf(call.function.arguments))) return result;',
    to: "",
    fails: "read_file 读回完整那份",
    because: /不再过一遍预算/,
  },
  {
    name: "读存下的那份也要问（提示 4）：没有终端就被拒绝",
    file: "main.ts",
    from: "guard(readFileTool, policy, ask, (args) => outputs.has(args.path))",
    to: "guard(readFileTool, policy, ask)",
    fails: "read_file 读回完整那份",
    because: /不用问/,
  },
  {
    name: "存的是截过的头尾，不是完整的（任务：整份）",
    file: "agent.ts",
    from: "const file = opts.outputs?.save(result);",
    to: "const file = opts.outputs?.save(cut);",
    fails: "read_file 读回完整那份",
    because: /一字不差/,
  },
  {
    name: "存之前先把控制字符显形（任务：原样存）",
    file: "outputs.ts",
    from: "fs.writeSync(fd, text);",
    to: 'fs.writeSync(fd, text.replace(/[\\x00-\\x08\\x0b-\\x1f]/g, "?"));',
    fails: "read_file 读回完整那份",
    because: /控制字符被改写/,
  },
  {
    name: "不设上限（任务：每个会话有界）",
    file: "outputs.ts",
    from: "while (this.files.length > MAX_FILES)",
    to: "while (this.files.length > Infinity)",
    fails: "每个会话最多留",
    because: /只剩 2 份/,
  },
  {
    name: "不读 HARNESS_SAVED_OUTPUTS（提示 5：上限要能调小）",
    file: "outputs.ts",
    from: 'setting("HARNESS_SAVED_OUTPUTS", 20)',
    to: "20",
    fails: "每个会话最多留",
    because: /只剩 2 份/,
  },
  {
    name: "上限差一（>= 而不是 >）：只留 1 份",
    file: "outputs.ts",
    from: "while (this.files.length > MAX_FILES)",
    to: "while (this.files.length >= MAX_FILES)",
    fails: "每个会话最多留",
    because: /只剩 2 份/,
  },
  {
    name: "按目录放行（提示 4：只认那几个文件）：别人放进去的文件也不问就读",
    file: "outputs.ts",
    from: "return this.files.includes(fs.realpathSync(p));",
    to: "return fs.realpathSync(p).startsWith(fs.realpathSync(this.dir) + path.sep);",
    fails: "只认存下的那几份",
    because: /不能按目录、按前缀认/,
  },
  {
    name: "把存下的输出预览印到终端上，没过 safeLine（任务：控制字符不上屏）",
    file: "agent.ts",
    from: "  if (!file) return cut;\n",
    to: "  if (!file) return cut;\n  console.error(`[存下了 ${file}：${result.slice(-40)}]`);\n",
    fails: "结果里的控制字符不上屏",
    because: /原样的 U\+/,
  },
  {
    name: "会话没存成也留着输出（任务：随会话删）",
    file: "main.ts",
    from: '  process.on("exit", () => session.saved === 0 && outputs.discard());\n',
    to: "",
    fails: "会话没存成",
    because: /没有会话文件/,
  },
];

mutantSuite("14-1-whole-output-kept", requirements, MUTANTS, 3);
