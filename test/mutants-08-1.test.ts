// 练习 08-1 的变异体：参考答案的 tools/edit.ts 里改一处，正是 README、HINTS.md 提醒过的错。
// 没有变异体的几条：
// - “有几个硬链接的文件不碰”：readForEdit() 和 replaceFile() 各查一次，是第 08 章原有的代码；检查器的场景里没有硬链接
//   （第 08 章自己的 hard-link-refused 场景管它）。
// - “只写一次”在全部成功时看不出来（写几次结果都一样）；它的另一面——失败时一次也没写——由 c.txt 的 inode、mtime 看。
import { requirements } from "../exercises/08-1-multi-edit/check.ts";
import { mutantSuite } from "./mutants-lib.ts";

const E = "tools/edit.ts";

mutantSuite(
  "08-1-multi-edit",
  requirements,
  [
    {
      name: "每一处都在原文上应用",
      file: E,
      from: "const done = applyEdit(text, p, edit);",
      to: "const done = applyEdit(file.content, p, edit);",
      fails: "multi_edit 依次应用",
      because: /原文里没有 dog house|第 2 处的 old_string/,
    },
    {
      name: "每一处编辑完就写一次",
      file: E,
      from: "    text = done.text;\n",
      to: "    text = done.text;\n    await replaceFile(file.target, p, text);\n",
      fails: "multi_edit 全有或全无",
      because: /只写一次|先写进去/,
    },
    {
      name: "replace_all 被忽略",
      file: E,
      from: `return { old_string: e.old_string, new_string: e.new_string, replace_all: e.replace_all === true };`,
      to: `return { old_string: e.old_string, new_string: e.new_string, replace_all: false };`,
      fails: "edit_file 的 replace_all",
      because: /全换掉/,
    },
    {
      name: "replaceAll 的替换值用字符串（$& 被当成匹配到的那段）",
      file: E,
      from: "content.replaceAll(edit.old_string, () => edit.new_string)",
      to: "content.replaceAll(edit.old_string, edit.new_string)",
      fails: "edit_file 的 replace_all",
      because: /用函数传替换值/,
    },
    {
      name: "replace_all 一处都没匹配也算成功",
      file: E,
      from: "if (count === 0) return",
      to: "if (count === 0 && !edit.replace_all) return",
      fails: "edit_file 的 replace_all",
      because: /zzz/,
    },
    {
      name: "replace_all 只要是真值就算（字符串 \"false\" 也换掉每一处）",
      file: E,
      from: `  if (e.replace_all !== undefined && typeof e.replace_all !== "boolean") return "replace_all 要是 true 或 false";\n`,
      to: "  if (e.replace_all) e.replace_all = true; // 真值就算\n",
      fails: "replace_all 只认布尔值",
      because: /"false"/,
    },
    {
      name: "多处匹配不看 replace_all 也放行",
      file: E,
      from: "if (count > 1 && !edit.replace_all) return",
      to: "if (count > 1 && false) return",
      fails: "没给 replace_all 或给 false",
      because: /多处|3 处|2 处/,
    },
    {
      name: "空的 old_string 不拒绝",
      file: E,
      from: `if (typeof e.old_string !== "string" || e.old_string === "")`,
      to: `if (typeof e.old_string !== "string")`,
      fails: "空的 old_string 被拒绝",
      because: /空字符串/,
    },
    {
      name: "错误不说第几处",
      file: E,
      from: "return `错误: 第 ${i + 1} 处编辑不成：${done}",
      to: "return `错误: 有一处编辑不成：${done}",
      fails: "multi_edit 全有或全无",
      because: /第几处/,
    },
    {
      name: "错误里的“第几处”从 0 数",
      file: E,
      from: "return `错误: 第 ${i + 1} 处编辑不成：${done}",
      to: "return `错误: 第 ${i} 处编辑不成：${done}",
      fails: "multi_edit 全有或全无",
      because: /从 1 数/,
    },
    {
      name: "multi_edit 不过 resolveInside()",
      file: E,
      from: "  const target = inside(p);\n  if (target.startsWith(\"错误:\")) return target;\n  const links = await hardLinked(target, p);\n  if (links) return links;\n  try {",
      to: "  const target = path.resolve(p);\n  const links = await hardLinked(target, p);\n  if (links) return links;\n  try {",
      fails: "multi_edit 也守第 08 章的路径规则",
      because: /resolveInside/,
    },
    {
      name: "空的 edits 当成什么也不做、成功",
      file: E,
      from: "if (!Array.isArray(edits) || edits.length === 0)",
      to: "if (!Array.isArray(edits))",
      fails: "multi_edit 全有或全无",
      because: /edits 是空数组/,
    },
  ],
  2,
);
