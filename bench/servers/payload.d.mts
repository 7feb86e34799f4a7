// payload.mjs 的类型声明：bench/*.ts 用它算出期望的哈希
export declare function makeText(bytes: number): string;
