// base64 to bytes and back, the two calls of the base64-js package that the vendored BPE core of
// GPT-2's tokenizer (web/lib/vendor/tiktoken-lite.js) makes, on the platform's atob/btoa (browsers,
// Workers, Node).
export function toByteArray(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function fromByteArray(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
  return btoa(binary);
}

export default { toByteArray, fromByteArray };
