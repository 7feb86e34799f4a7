// shell.ts：把一行 bash 拆成一条条简单命令，交给权限规则去比（permissions.ts 用它）。
// 第 09 章新增：认得引号、反斜杠、注释、关键字、包装命令和 git 的全局选项；规则看不清的写法标成 unsafe——
// 拆分器证明不了自己看懂了的，一律问人，从不放行。

export interface Split {
  commands: string[]; // 每条简单命令：词去掉引号、用一个空格连起来
  readings: string[]; // 同样的命令按 bash、git 真正做的事再读一遍（/bin/rm v 就是 rm v，git -C . push 就是 git push），只给 deny、ask 比
  unsafe: boolean; // 有规则看不清的东西，带模式的 allow 不能放行
}

// 在引号外的 ; && || | & 和换行处断开，包在 env、xargs、sudo、bash -c 之类里面的命令拆出来，按它真正要跑的那条比。
// unsafe：命令替换 $(…)、反引号、进程替换 <(…)、写进文件的重定向、heredoc、$'…' 和 $"…"、花括号和 ${…}、$变量、
// 续行、括号、通配符当命令名、开头的 FOO=1、for/case、sudo 这类替人跑命令的、python -c 这类命令行上的代码、
// 会去跑别的程序的 git 选项……拿不准的一律算。
// 引号不配对返回 undefined
export function splitCommand(line: string): Split | undefined {
  const split = splitWords(line);
  if (!split) return undefined;
  const text = (words: string[]) => words.map(shellWord).join(" ");
  const commands = split.commands.map(text);
  const seen = new Set(commands); // 不用 commands.includes：几万条命令的一行会变成平方级，卡住 harness
  const readings = split.commands.map((words) => text(reading(words))).filter((r) => !seen.has(r));
  return { commands, readings, unsafe: split.unsafe };
}

function splitWords(line: string, depth = 0): { commands: string[][]; unsafe: boolean } | undefined {
  const commands: string[][] = [[]];
  let word: string | undefined; // 正在拼的词；undefined 表示在词与词之间
  let quote = "";
  let unsafe = false;
  const endWord = () => {
    if (word !== undefined) commands[commands.length - 1].push(word);
    word = undefined;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = "";
      else word += c;
      continue;
    }
    if (quote === "$'" && c === "'") {
      quote = ""; // $'…' 里反斜杠能转义单引号，所以它自成一种引号
      continue;
    }
    if (c === "\\") {
      i++; // 反斜杠让下一个字符失去特殊含义；反斜杠加换行是续行——续行把两行拼成一条，规则看不清
      if (line[i] === "\n") unsafe = true;
      else if (i < line.length) word = (word ?? "") + line[i];
      continue;
    }
    if (c === "`" || c === "$") {
      // 反引号、$(…)、$'…'、$"…"、${…}、$变量：展开以后是什么，要等 bash 跑到这里才知道
      if (c === "`" || /[(\x27"{\w@*#?!$-]/.test(line[i + 1] ?? "")) unsafe = true;
    }
    if (quote) {
      if (c === quote) quote = "";
      else word += c;
      continue;
    }
    if (c === "'" || c === '"' || (c === "$" && line[i + 1] === "'")) {
      quote = c === "$" ? "$'" : c;
      i += c === "$" ? 1 : 0;
      word ??= "";
    } else if (c === "#" && word === undefined) {
      while (i + 1 < line.length && line[i + 1] !== "\n") i++; // 注释：到行尾为止都不是命令
    } else if (c === "<" && line[i + 1] === "<") {
      unsafe = true; // heredoc 和 <<<：后面几行是给命令的输入，不是命令——这个小拆分器不去猜它在哪里结束
      word = (word ?? "") + c;
    } else if ((c === "<" || c === ">") && line[i + 1] === "(") {
      unsafe = true;
      word = (word ?? "") + c;
    } else if (c === ">" || (c === "&" && line[i + 1] === ">")) {
      // 重定向：2>&1、>/dev/null 不写文件，照常比；别的目标都算 unsafe
      const op = line.slice(i).match(/^&?>[>|]?\s*/)![0];
      const target = line.slice(i + op.length).match(/^(&\d+|&-|\/dev\/null)(?=[\s;&|]|$)/)?.[0];
      if (target === undefined) unsafe = true;
      word = (word ?? "") + op.trim() + (target ?? "");
      i += op.length + (target?.length ?? 0) - 1;
    } else if (";&|\n".includes(c)) {
      endWord();
      commands.push([]); // && || |& 会留下空命令，最后滤掉
    } else if (c === " " || c === "\t") endWord();
    else {
      if ("(){}".includes(c)) unsafe = true; // 子 shell、命令组、花括号展开 {rm,x}：词不再是看上去的样子
      word = (word ?? "") + c;
    }
  }
  if (quote) return undefined;
  endWord();
  const unwrapped = commands.filter((words) => words.length > 0).map((words) => unwrap(words, depth));
  return { commands: unwrapped.flatMap((u) => u.commands), unsafe: unsafe || unwrapped.some((u) => u.unsafe) };
}

// 关键字不是命令，它后面的才是：if :; then rm v; fi 里要比的是 : 和 rm v。
// for、case、select 后面的词是变量名和模式，不是命令；function、coproc 也一样——拿不准
const KEYWORDS = new Set(["if", "then", "elif", "else", "fi", "while", "until", "do", "done", "!", "{", "}"]);
const OPAQUE = new Set(["for", "case", "esac", "select", "function", "coproc"]);

// 包装命令本身不做事，做事的是它后面那条：env git push 要按 git push 比。
// 还会换着法子跑命令的（find -exec、bash -c、eval，下面的 RUNNERS），拆出来给 deny 比，但一定要问
const WRAPPERS = new Set(["env", "command", "exec", "nice", "time", "timeout", "nohup", "builtin"]);

// 把自己的参数当成一条命令去跑的程序。选项各有各的参数（sudo -u root rm、flock 锁文件 rm、chrt 1 rm），内层命令从哪个词起
// 只能猜：从头 REACH 个不是选项的词起的每一段都拆出来给 deny、ask 比（错拒是安全的一边），整条一定要问
const RUNNERS = new Set(["xargs", "sudo", "doas", "su", "runuser", "pkexec", "setpriv", "chroot", "nsenter", "unshare", "busybox", "stdbuf",
  "setsid", "ionice", "taskset", "chrt", "prlimit", "flock", "script", "watch", "strace", "ltrace", "systemd-run", "parallel"]);
const REACH = 8;

// 解释器的这些选项后面是一段代码（python3 -c、perl -e、node -p、php -r），awk、sed 的程序本身就写在命令行上（system()、
// sed 的 e 命令）；没有程序文件、或者程序是 - 的，从标准输入读代码（curl … | sh）。里面跑什么，规则都看不见
const INLINE: Record<string, RegExp> = { python: /^-\w*c/, perl: /^-\w*[eE]/, ruby: /^-\w*e/, node: /^(-\w*[ep]|--eval|--print)/, php: /^-\w*r/,
  lua: /^-\w*e/, awk: /^/, gawk: /^/, mawk: /^/, nawk: /^/, sed: /^/, sh: /^-\w*s/, bash: /^-\w*s/, zsh: /^-\w*s/, dash: /^-\w*s/ };

// 包装套包装最多读这么多层，再深的不读、一律问：env env env … 几万层也撑不爆栈
const DEEPEST = 16;

function unwrap(words: string[], depth: number): { commands: string[][]; unsafe: boolean } {
  if (depth > DEEPEST) return { commands: [words], unsafe: true };
  const deeper = (rest: string[]) => unwrap(rest, depth + 1);
  if (KEYWORDS.has(words[0])) return words.length > 1 ? deeper(words.slice(1)) : { commands: [], unsafe: false };
  if (OPAQUE.has(words[0])) return { commands: [words], unsafe: true };
  // FOO=x cmd：环境变量能改掉命令的行为（PATH=.、GIT_SSH_COMMAND=…），拿不准；deny 比的是后面那条命令
  if (/^[A-Za-z_]\w*=/.test(words[0])) return { commands: words.length > 1 ? deeper(words.slice(1)).commands : [words], unsafe: true };
  const [name, ...rest] = words;
  const base = name.split("/").pop()!;
  const unsafe = /[*?[]/.test(name); // 命令名带通配符：/bin/r? 也许就是 /bin/rm
  if (WRAPPERS.has(base)) {
    // 选项跳过，但除了 -- 和 command -p、time -p，带选项的包装一律拿不准（env -S、exec -a、timeout -s KILL……）；
    // env 的 NAME=value 改环境，也拿不准；timeout 的时长跳过
    let i = 0;
    let odd = unsafe;
    for (; i < rest.length; i++) {
      const w = rest[i];
      if (w === "--") {
        i++;
        break;
      }
      if (base === "env" && /^[A-Za-z_]\w*=/.test(w)) odd = true;
      else if (w.startsWith("-") && w !== "-") odd ||= !(w === "-p" && (base === "command" || base === "time"));
      else break;
    }
    if (base === "timeout" && /^\d/.test(rest[i] ?? "")) i++;
    if (i >= rest.length) return { commands: [words], unsafe: odd }; // 只有包装没有命令：env、time 自己就是命令
    const inner = deeper(rest.slice(i));
    return { commands: inner.commands, unsafe: odd || inner.unsafe };
  }
  const nested = (text: string) => splitWords(text, depth + 1)?.commands ?? [[text]];
  if ((base === "sh" || base === "bash" || base === "zsh" || base === "dash") && rest.some((w) => /^-\w*c/.test(w))) {
    const script = rest[rest.findIndex((w) => /^-\w*c/.test(w)) + 1] ?? "";
    return { commands: nested(script), unsafe: true };
  }
  if (base === "eval") return { commands: nested(rest.join(" ")), unsafe: true };
  if (RUNNERS.has(base)) {
    const commands = [words];
    for (let i = 0, seen = 0; i < rest.length && seen < REACH; i++) {
      if (rest[i].startsWith("-")) continue;
      seen++;
      const suffix = rest.slice(i);
      const inner = deeper(suffix);
      commands.push(...inner.commands, ...(/[\s;&|]/.test(rest[i]) ? nested(rest[i]) : [])); // su -c 'rm v'、watch 'rm v'：一个词就是一行命令
      if (inner.commands.length > 1 || inner.commands[0] !== suffix) break; // 包装、又一个 RUNNERS：后面的词它已经读过了
    }
    return { commands, unsafe: true };
  }
  const code = INLINE[base.replace(/[\d.]+$/, "")]; // python3.12 就是 python
  const stdin = () => rest.every((w) => w.startsWith("-") && !/^--(version|help)$/.test(w)); // 没给程序文件：代码从标准输入来
  if (code && (stdin() || rest.some((w) => code.test(w) || w === "-"))) return { commands: [words], unsafe: true };
  if (base === "find" && rest.some((w) => /^-(exec|execdir|ok|okdir|delete)$/.test(w))) {
    const i = rest.findIndex((w) => /^-(exec|execdir|ok|okdir)$/.test(w));
    return { commands: [words, ...(i >= 0 ? deeper(rest.slice(i + 1).filter((w) => w !== ";" && w !== "+")).commands : [])], unsafe: true };
  }
  if (base === "git") return { commands: [words], unsafe: unsafe || git(rest).unsafe };
  return { commands: [words], unsafe };
}

// 给 deny、ask 再读一遍：bash 按名字找到的程序和写成路径的是同一个（/bin/rm 就是 rm）；git 去掉全局选项
function reading(words: string[]): string[] {
  const [name, ...rest] = words;
  const base = name.split("/").pop() || name;
  return base === "git" ? ["git", ...git(rest).command] : [base, ...rest];
}

// git 的全局选项：-C 目录、--no-pager 这些不改变 git 做的事，给规则比的是去掉它们以后的子命令。
// -c、--config-env、--exec-path、--git-dir、--work-tree 和认不出的，能让 git 去跑别的程序、读别处的配置（和钩子）：拿不准
const GIT_VALUE = new Set(["-C", "--namespace", "--super-prefix", "--attr-source"]);
const GIT_FLAGS = new Set(["-P", "-p", "--no-pager", "--paginate", "--bare", "--no-replace-objects", "--literal-pathspecs", "--glob-pathspecs",
  "--noglob-pathspecs", "--icase-pathspecs", "--no-optional-locks", "--no-lazy-fetch", "--no-advice", "--version", "--help", "-v", "-h"]);
// 这些子命令和选项会去跑一个给出的程序：--upload-pack=id、rebase --exec id、submodule foreach id……
// 长选项 git 认缩写（--upload 就是 --upload-pack），所以互为前缀都算；短选项可以连写（-ix），带着那个字母就算
const GIT_RUNS = ["--upload-pack", "--receive-pack", "--exec", "--extcmd", "--open-files-in-pager", "--output"];
const GIT_RUNS_SHORT: Record<string, string> = { clone: "u", "ls-remote": "u", grep: "O", rebase: "x", difftool: "x" };

function git(rest: string[]): { command: string[]; unsafe: boolean } {
  let i = 0;
  for (; i < rest.length && rest[i].startsWith("-"); i++) {
    const name = rest[i].split("=")[0];
    if (GIT_VALUE.has(rest[i])) i++;
    else if (!GIT_FLAGS.has(rest[i]) && !(GIT_VALUE.has(name) && name.startsWith("--"))) return { command: rest, unsafe: true };
  }
  const [sub = "", ...args] = rest.slice(i);
  const long = (w: string) => w.startsWith("--") && w.split("=")[0].length > 2 && GIT_RUNS.some((r) => r.startsWith(w.split("=")[0]) || w.startsWith(r));
  const short = (w: string) => /^-[^-]/.test(w) && GIT_RUNS_SHORT[sub] !== undefined && w.includes(GIT_RUNS_SHORT[sub]);
  const runs =
    /^(filter-branch|send-email|hook)$/.test(sub) ||
    (sub === "submodule" && args.includes("foreach")) ||
    (sub === "bisect" && args[0] === "run") ||
    // git config 写进去的 alias.x=!id、core.fsmonitor=id，下一次 git 自己就会去跑：只有读才不算
    (sub === "config" && !args.some((w) => /^(--get|--list$|-l$|get$|list$)/.test(w))) ||
    args.some((w) => long(w) || short(w));
  return { command: rest.slice(i), unsafe: runs };
}

// 普通的词原样；带空格或 shell 特殊字符的加单引号，免得 `echo 'a b'` 和 `echo a b` 看起来一样
function shellWord(word: string): string {
  return /^[^\s'"\\$`;&|<>(){}#!]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
