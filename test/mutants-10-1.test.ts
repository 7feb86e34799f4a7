// 练习 10-1 的变异体：在参考答案上改一处，正是 HINTS.md 提醒过的错（或者任务明说不许的事）。
// 每一个都要被管这件事的那条要求认出来。场景只有一个（fork-and-list，三次运行），一个变异体约 1.5 秒；
// 去读 FIFO 的那个让 --sessions 卡住，要等满场景的时限（30 秒）才判得出来，排在最前面先起跑。
// 看不见的：第一问先显形再截短还是先截短再显形（两种都不会把控制字符原样印出来，场景只查这一点）；
// 按字符还是按 UTF-16 单位截短（提示 4：场景里第 40 个字附近没有 emoji，劈开的代理项也会被 safeLine 显形，查不出来）；
// --fork 不跟在 --resume 后面时怎么办（任务没规定）。
import { requirements } from "../exercises/10-1-fork-and-list/check.ts";
import { mutantSuite, type Mutant } from "./mutants-lib.ts";

const MUTANTS: Mutant[] = [
  {
    name: "列会话时只跳过符号链接、照读 FIFO（提示 4）：--sessions 卡住，场景时限才结束它",
    file: "session.ts",
    from: "if (symlinkOnPath(file) || !fs.lstatSync(file).isFile()) return { id };",
    to: "if (symlinkOnPath(file)) return { id };",
    fails: "会话文件不可信",
    because: /FIFO/,
  },
  {
    name: "分叉时没换新会话，新消息追加进原会话（任务：原会话一个字节不变）",
    file: "main.ts",
    from: "session = createSession(process.cwd());\n      console.error(`[从会话",
    to: "session = loaded.session;\n      console.error(`[从会话",
    fails: "原会话文件一个字节也不变",
    because: /cmp/,
  },
  {
    name: "分叉时照常读回原会话，给半截的最后一行补了换行（提示 2）",
    file: "main.ts",
    from: "loadSession(process.cwd(), resumeId, fork)",
    to: "loadSession(process.cwd(), resumeId)",
    fails: "原会话文件一个字节也不变",
    because: /补了换行/,
  },
  {
    name: "新会话只写分叉之后的消息，没有带上复制来的历史（提示 3）",
    file: "main.ts",
    from: "session = createSession(process.cwd());\n      console.error(`[从会话",
    to: "session = { ...createSession(process.cwd()), saved: history.length };\n      console.error(`[从会话",
    fails: "分出来的新会话存下了两部分",
    because: /开头的 system 消息/,
  },
  {
    name: "分叉 = 把原文件整个复制过去再追加（提示 3）：复制来的半截行粘住了分叉后的第一问",
    file: "main.ts",
    from: "session = createSession(process.cwd());\n      console.error(`[从会话",
    to: 'session = { ...createSession(process.cwd()), saved: history.length };\n      (await import("node:fs")).copyFileSync(loaded.session.file, session.file);\n      console.error(`[从会话',
    fails: "分出来的新会话存下了两部分",
    because: /分叉后的那一问/,
  },
  {
    name: "列表旧的在前",
    file: "session.ts",
    from: "sessionIds(dir).reverse()",
    to: "sessionIds(dir)",
    fails: "--sessions 新的在前",
    because: /新的在前/,
  },
  {
    name: "列表按文件的修改时间排（提示 1：和 --resume 的“最新”不是一回事）",
    file: "session.ts",
    from: "sessionIds(dir).reverse()",
    to: 'sessionIds(dir).sort((a, b) => fs.statSync(path.join(dir, b + ".jsonl")).mtimeMs - fs.statSync(path.join(dir, a + ".jsonl")).mtimeMs)',
    fails: "--sessions 新的在前",
    because: /修改时间/,
  },
  {
    name: "“几问”数成了消息的条数",
    file: "session.ts",
    from: "prompts: prompts.length",
    to: "prompts: messages.length",
    fails: "--sessions 新的在前",
    because: /3 问/,
  },
  {
    name: "“第一问”取了第一条消息（那是 system prompt）",
    file: "session.ts",
    from: "first: prompts[0]?.content",
    to: "first: messages[0]?.content",
    fails: "--sessions 新的在前",
    because: /第一问/,
  },
  {
    name: "时间取的是现在，不是 id 里的开始时间（任务：时间从 id 里读）",
    file: "main.ts",
    from: "const time = `${id.slice(0, 4)}-${id.slice(4, 6)}-${id.slice(6, 8)} ${id.slice(9, 11)}:${id.slice(11, 13)}`;",
    to: 'const time = new Date().toISOString().slice(0, 16).replace("T", " ");',
    fails: "--sessions 新的在前",
    because: /2020-01-01 09:00/,
  },
  {
    name: "--sessions 放在 loadConfig() 之后（任务：不需要密钥）",
    file: "main.ts",
    from: 'if (process.argv[2] === "--sessions") return printSessions(); // 只看本地的文件，不用模型，也不要密钥\n  const config = loadConfig(process.env);',
    to: 'const config = loadConfig(process.env);\n  if (process.argv[2] === "--sessions") return printSessions();',
    fails: "--sessions 新的在前",
    because: /密钥/,
  },
  {
    name: "第一问原样上屏，不显形（提示 4）",
    file: "main.ts",
    from: "${safeLine(shown)}",
    to: "${shown}",
    fails: "会话文件不可信",
    because: /显形/,
  },
  {
    name: "第一问不截短",
    file: "main.ts",
    from: "chars.length > FIRST_PROMPT ?",
    to: "false ?",
    fails: "会话文件不可信",
    because: /TAIL-MARKER/,
  },
  {
    name: "用 statSync 判断普通文件（提示 4）：跟着符号链接读到了会话目录外的文件",
    file: "session.ts",
    from: "if (symlinkOnPath(file) || !fs.lstatSync(file).isFile()) return { id };",
    to: "if (!fs.statSync(file).isFile()) return { id };",
    fails: "会话文件不可信",
    because: /符号链接/,
  },
];

mutantSuite("10-1-fork-and-list", requirements, MUTANTS, 4);
