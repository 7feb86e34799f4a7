export const View = () => null; // TODO tsx 不是 ts
