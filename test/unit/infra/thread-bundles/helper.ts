export const doubled = (n: number): number => n * 2;
