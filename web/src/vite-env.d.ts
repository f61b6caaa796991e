/// <reference types="vite/client" />

declare module 'tabler-icon-nodes/*' {
  const nodes: Record<string, [string, Record<string, string>][]>;
  export default nodes;
}
