// 练习 06-1 的变异体：参考答案的 schema.ts 或 registry.ts 里改一处，正是 README、HINTS.md 提醒过的错。
// 没有变异体的几条：
// - “不往 Object.prototype 上写”：参考答案的检查只读不写，改一处也造不出污染；探针在 L 的结果里报原型干不干净，
//   写了深合并、拿模型的键往对象上赋值的实现会在“additionalProperties…”那条被抓到。
// - “键名太长就截断”：场景里的键都不长；长键和长字符串走的是同一条“错误有界”的路，由 hostile 场景的 mode 那一问代表。
import { requirements } from "../exercises/06-1-tool-schema/check.ts";
import { mutantSuite } from "./mutants-lib.ts";

const S = "schema.ts";
const R = "registry.ts";

mutantSuite(
  "06-1-tool-schema",
  requirements,
  [
    {
      name: "只查 required，别的关键字都不管",
      file: S,
      from: `  const here = path || "（参数本身）";`,
      to: `  if (isObject(value)) return (schema.required ?? []).filter((k) => !Object.hasOwn(value, k)).map((k) => \`\${join(path, k)} 缺少\`);\n  return [];\n  const here = path || "（参数本身）";`,
      fails: "type",
      because: /2\.5|integer/,
    },
    {
      name: "报了错，工具还是执行了",
      file: R,
      from: "if (problems.length > 0) {",
      to: 'if (problems.length > 0) console.error(`错误: ${problems.join("；")}`);\n    if (false) {',
      fails: "不合规的参数",
      because: /探针执行了/,
    },
    {
      name: "问题全列出来，不设上限",
      file: R,
      from: "const LISTED = 5;",
      to: "const LISTED = Infinity;",
      fails: "错误有界",
      because: /只列出前几处/,
    },
    {
      name: "integer 当成 typeof number",
      file: S,
      from: `if (type === "integer") return Number.isInteger(value);`,
      to: `if (type === "integer") return typeof value === "number";`,
      fails: "type",
      because: /2\.5 不是整数/,
    },
    {
      name: "number 当成“非整数”",
      file: S,
      from: `if (type === "number") return typeof value === "number" && Number.isFinite(value);`,
      to: `if (type === "number") return typeof value === "number" && !Number.isInteger(value);`,
      fails: "type",
      because: /整数也是 number/,
    },
    {
      name: "object 用 typeof 判断，数组混了过去",
      file: S,
      from: `if (type === "object") return isObject(value);`,
      to: `if (type === "object") return typeof value === "object" && value !== null;`,
      fails: "type",
      because: /opts[\s\S]*数组/,
    },
    {
      name: "必填用 !value[key] 判断，0 被当成没给",
      file: S,
      from: `if (!Object.hasOwn(value, key)) problems.push`,
      to: `if (!value[key]) problems.push`,
      fails: "合规的参数",
      because: /不看值真不真/,
    },
    {
      name: "只看顶层，嵌套的对象不往下查",
      file: S,
      from: `problems.push(...validate(item, properties[key]!, join(path, key)));`,
      to: `problems.push(...(hasType(item, properties[key]!.type ?? "") ? [] : [\`\${join(path, key)} 类型不对\`]));`,
      fails: "required",
      because: /嵌套/,
    },
    {
      name: "enum 不查",
      file: S,
      from: `if (schema.enum !== undefined && `,
      to: `if (false && schema.enum !== undefined && `,
      fails: "enum",
      because: /FAST/,
    },
    {
      name: "items 只查第一项",
      file: S,
      from: "value.forEach((item, i) => problems.push(...validate(item, schema.items!, `${path}[${i}]`)));",
      to: "problems.push(...validate(value[0], schema.items!, `${path}[0]`));",
      fails: "items",
      because: /tags\[1\]|下标 1/,
    },
    {
      name: "additionalProperties 不管",
      file: S,
      from: `else if (schema.additionalProperties === false)`,
      to: `else if (false)`,
      fails: "additionalProperties",
      because: /colour/,
    },
    {
      name: "用 in 查键在不在 properties 里（constructor、__proto__ 混过去）",
      file: S,
      from: `if (Object.hasOwn(properties, key)) problems.push`,
      to: `if (key in properties) problems.push`,
      fails: "additionalProperties",
      because: /constructor/,
    },
    {
      name: "合规的参数解析后再 stringify 一遍交给工具",
      file: R,
      from: `return await tool.execute(args || "{}");`,
      to: `return await tool.execute(JSON.stringify(parsed));`,
      fails: "合规的参数",
      because: /原文|stringify/,
    },
    {
      name: "类型错误里抄上收到的值（JSON.stringify 十万层就抛 RangeError）",
      file: S,
      from: "收到的是 ${typeName(value)}",
      to: "收到的是 ${JSON.stringify(value)}",
      fails: "恶意参数",
      because: /堆栈|调用栈/,
    },
    {
      name: "enum 的错误里抄上整个值（二十万字进了结果）",
      file: S,
      from: "之一`];",
      to: "之一，收到 ${JSON.stringify(value)}`];",
      fails: "恶意参数",
      because: /不超过 2000/,
    },
    {
      name: "不是对象的参数原样抄进错误",
      file: R,
      from: "收到的是 ${clip(args)}",
      to: "收到的是 ${args}",
      fails: "恶意参数",
      because: /不超过 2000/,
    },
  ],
  2,
);
