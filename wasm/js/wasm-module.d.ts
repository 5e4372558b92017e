// A `.wasm` import is a compiled module on Workers (see workerd.ts).
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
