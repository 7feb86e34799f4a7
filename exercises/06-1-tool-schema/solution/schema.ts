// schema.ts：照工具声明的 parameters 检查模型给的参数——JSON Schema 里工具声明常用的那一小块：
// type（object、array、string、number、integer、boolean、null）、properties、required、enum、items、additionalProperties: false。
// 练习 06-1 新增。
export interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  items?: Schema;
  additionalProperties?: boolean;
}

// 找出 value 不符合 schema 的每一处，一处一句“路径 怎么了”。只沿着 schema 往下走：
// 参数嵌套得再深，也只看 schema 写到的那几层，递归的深度由声明定，不由模型定
export function validate(value: unknown, schema: Schema, path = ""): string[] {
  const here = path || "（参数本身）";
  if (schema.type !== undefined && !hasType(value, schema.type)) return [`${here} 应是 ${schema.type}，收到的是 ${typeName(value)}`];
  // 只说收到的是什么类型，不把值抄进来：一个一兆的字符串、十万层的数组都会原样进错误
  if (schema.enum !== undefined && !schema.enum.some((v) => v === value)) return [`${here} 只能是 ${schema.enum.map((v) => JSON.stringify(v)).join("、")} 之一`];
  const problems: string[] = [];
  if (Array.isArray(value) && schema.items) {
    value.forEach((item, i) => problems.push(...validate(item, schema.items!, `${path}[${i}]`)));
  }
  if (isObject(value)) {
    const properties = schema.properties ?? {};
    // Object.hasOwn，不用 in：in 会沿原型链找，"constructor"、"__proto__" 在任何对象上都“有”
    for (const key of schema.required ?? []) {
      if (!Object.hasOwn(value, key)) problems.push(`${join(path, key)} 缺少（必填）`);
    }
    for (const [key, item] of Object.entries(value)) {
      if (Object.hasOwn(properties, key)) problems.push(...validate(item, properties[key]!, join(path, key)));
      else if (schema.additionalProperties === false) problems.push(`${join(path, key)} 不认识（没有这个参数）`);
    }
  }
  return problems;
}

function hasType(value: unknown, type: string): boolean {
  if (type === "integer") return Number.isInteger(value); // 2.5 不是 integer；JSON 里的 3.0 解析出来就是 3，算
  if (type === "number") return typeof value === "number" && Number.isFinite(value);
  if (type === "array") return Array.isArray(value);
  if (type === "object") return isObject(value);
  if (type === "null") return value === null;
  return typeof value === type; // string、boolean
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && !Number.isInteger(value)) return "number（非整数）";
  return typeof value === "number" ? "integer" : typeof value;
}

// 键名出自模型：太长的截断，看不见的字符转义，免得一个键撑大整条错误
function join(path: string, key: string): string {
  const shown = /^[\p{L}\p{N}_$-]{1,40}$/u.test(key) ? key : JSON.stringify(key.length > 40 ? key.slice(0, 40) + "…" : key);
  return path ? `${path}.${shown}` : shown;
}
