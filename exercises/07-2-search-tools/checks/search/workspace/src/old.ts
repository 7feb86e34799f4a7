export const old = 1; // TODO 旧文件
