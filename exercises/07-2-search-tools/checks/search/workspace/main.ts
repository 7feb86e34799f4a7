export const root = 1;
